import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { refusedWork } from "../../core/runtime/worker-pool.ts";
import { base64Param, decodeBase64 } from "./_base64.ts";
import { imageInfo } from "./_image-size.ts";
import { recognize } from "./_ocr-worker.ts";
import { contentOrUrl, urlParam } from "./_source.ts";

const maxSide = 4096;
const recognizeTimeoutMs = 20_000;
const bbox = v.object({ x0: v.number(), y0: v.number(), x1: v.number(), y1: v.number() });

export default defineEndpoint({
  name: "ocr",
  method: "GET",
  price: "$0.02",
  summary: "Read the English text in a PNG or JPEG image, given as base64 or a URL (OCR)",
  description:
    "Tesseract (LSTM, English) runs locally. The base64 text may be up to 100,000 characters (about 73 KB of image), " +
    `at most ${maxSide} pixels per side; a url is fetched through the egress guard (public http(s) targets, up to 5 MB; ` +
    `a target that fails is a 502 and not charged). Dark text on a light background at 20 pixels or more per line reads best.`,
  probes: true,
  oneOf: [["image"], ["url"]],
  input: v.object({
    image: v.optional(
      base64Param(
        100_000,
        "The image, PNG or JPEG, base64 (standard or URL-safe alphabet, or a data: URL); or give url",
      ),
    ),
    url: urlParam("PNG or JPEG image"),
  }),
  output: v.object({
    text: v.string(),
    confidence: v.pipe(v.number(), v.description("Mean word confidence, 0-100")),
    format: v.picklist(["png", "jpeg"]),
    width: v.number(),
    height: v.number(),
    lines: v.array(
      v.object({
        text: v.string(),
        confidence: v.number(),
        bbox: v.pipe(bbox, v.description("Pixel box: left, top, right, bottom")),
      }),
    ),
  }),
  example: {
    input: {
      image:
        "iVBORw0KGgoAAAANSUhEUgAAAVwAAAAsCAAAAAAMKF+FAAAA4ElEQVR42u3ZQQ6CMBAF0N7/0ujChTYtnRkgRH1/Q2xxHB4m2tI2uSwNAVy4AhcuXIF7O2575mPi9boNMjp/Vqefe6+x29ikn1mdUY+rPjP9rHob1YELFy7cCm4GMTq+uqBoP9nxaj89ZOhLABcuXLhwy7irmnDhwoWbwZ0tFrJ/zs/EnR1Xi50rb3a4Jly4cOF+2d5CBjfzOZV+9jZ7Ru+HCxcu3F/HLf/4JDbMwzcQLly4cAu4kcXFaryfy1xE5IHg0f63RPYejKZ3xeDChfuXuHJ+4MKFK3DhwhW4t+UBbHtSUWFDuFcAAAAASUVORK5CYII=",
    },
    output: {
      text: "HELLO WORLD 42",
      confidence: 83,
      format: "png",
      width: 348,
      height: 44,
      lines: [
        {
          text: "HELLO WORLD 42",
          confidence: 83,
          bbox: {
            x0: 8,
            y0: 8,
            x1: 340,
            y1: 36,
          },
        },
      ],
    },
  },
  async handler({ input, egress, signal }) {
    const source = await contentOrUrl(egress, input.image, input.url);
    const bytes = "inline" in source ? decodeBase64(source.inline) : source.fetched;
    const field = input.url ? "url" : "image";
    const info = imageInfo(bytes);
    if (!info) throw fieldError(field, "The image must be a PNG or a JPEG");
    if (info.width < 1 || info.height < 1 || info.width > maxSide || info.height > maxSide) {
      throw fieldError(field, `The image is ${info.width}x${info.height} pixels; each side must be 1 to ${maxSide}`);
    }
    const result = await recognize(bytes, recognizeTimeoutMs, signal).catch((error) => {
      if (String(error).includes("Error attempting to read image"))
        throw fieldError(field, "The image could not be decoded");
      throw refusedWork(error, field, "the image");
    });
    const lines =
      result.data.blocks?.flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines)) ?? [];
    return {
      text: result.data.text.trim(),
      confidence: round1(result.data.confidence),
      format: info.format,
      width: info.width,
      height: info.height,
      lines: lines.map((line) => ({ text: line.text.trim(), confidence: round1(line.confidence), bbox: line.bbox })),
    };
  },
});

const round1 = (x: number) => Math.round(x * 10) / 10;
