import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { lazy } from "../../core/shared.ts";
import { fieldError } from "../../core/runtime/errors.ts";

const linear = [
  "code128",
  "code39",
  "code93",
  "ean13",
  "ean8",
  "upca",
  "upce",
  "itf14",
  "interleaved2of5",
  "isbn",
  "gs1-128",
] as const;
const twoDimensional = ["qrcode", "datamatrix", "pdf417", "azteccode"] as const;
const types = [...linear, ...twoDimensional] as const;
type BarcodeType = (typeof types)[number];

const isLinear = (type: BarcodeType) => (linear as readonly string[]).includes(type);

/** bwip-js (2 MB of PostScript encoders) is loaded on the first call, not at boot. */
const loadBwip = lazy(() => import("bwip-js").then((m) => m.default));

export default defineEndpoint({
  name: "barcode",
  method: "GET",
  price: "$0.01",
  summary: "Render a barcode (Code 128, EAN-13, UPC-A, Data Matrix, PDF417, QR and more) as a PNG",
  description:
    "EAN, UPC, ITF-14 and ISBN check digits are verified when given and computed when left off; a wrong one answers 400. " +
    "gs1-128 takes GS1 syntax such as (01)09521234543213(10)ABC.",
  input: v.object({
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(2000), v.description("Data to encode")),
    type: v.optional(v.pipe(v.picklist(types), v.description("Symbology")), "code128"),
    scale: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description("Pixels per module")),
      3,
    ),
    height: v.optional(
      v.pipe(v.number(), v.minValue(2), v.maxValue(50), v.description("Bar height in millimetres (linear codes only)")),
      10,
    ),
    includeText: v.optional(
      v.pipe(v.boolean(), v.description("Print the human-readable text under linear codes")),
      true,
    ),
  }),
  output: v.object({
    type: v.picklist(types),
    text: v.string(),
    png: v.pipe(v.string(), v.description("data:image/png;base64,... URL")),
    width: v.pipe(v.number(), v.description("PNG width in pixels")),
    height: v.pipe(v.number(), v.description("PNG height in pixels")),
  }),
  example: {
    input: { text: "4006381333931", type: "ean13", scale: 1, height: 5 },
    output: {
      type: "ean13",
      text: "4006381333931",
      png: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAGsAAAAYCAYAAAD9CQNjAAAAHnRFWHRTb2Z0d2FyZQBid2lwLWpzLm1ldGFmbG9vci5jb21Tnbi0AAAC8ElEQVR4nO2WS4hPURzHP+P195whk2cWRmpCFhNJiKgp00SahYVSVrOxMGJDkWIWNqRkoSzGxiMpForQlFfYeJRXHnmW8kizlHFu/a6O45x7f+f6J4vzrdu993zP73W/5/zOhTgMOnd73OUGPbxvjo8LzXfz8PnS5OT6qxcXylljp8k7CkmsYi6JlcRKYmlri+GSWEmsJJa2thguiZXESmJpa4vhklhJrCSWtrYYLomVxEpiaWuL4ZJYSawklra2GO6fiTUJuOxxWpZ0hxXgrDMn4578pVgDTryF8v4aOOyx6wI+KsT6DHyTa6BOXH69kHtjhJ0m71/oBfZEilUD3gJtwFDgALBXweXYCtwBRgfirQTeAK3W2HVglfg/CWywuJ3AI+CuuToL8i6LUYVrAO4Da4AJwDFgi9JnVN7jgXdAs8e5Ddd4gbMb5wA3FFyGxcBLYFog1iIpqs0Z325W5jaxuwWstrgeqeWMUqxQjCpcVu81632efHyNz6i8M2UPympd5kkuZNwpqzvHFOC5gstwAfgOvJfY7kI5YVbmV2AXMMoar0m7+AEcCeSpFSsUowo3EngFtMjYbuBKhE9V3mNkV80A5kqbCcE1XusIMlnOkjJurPTuJfJ8CNjhiTdOCrDbyWmzS09Ju3lqdmt7laJLYlTlumQ3fZFY3ZE+S/PukMPvHHBVnvd7HPmMV5gPfsnis1b3QMEtB/otbr7J43YgZrvswnzeQzkfkLOr32MTI5Ybox5ct9QzItKuNO+srSyV9rdRPqjvQPWhCfgEzJL3bHsfVXA1+WOabX46hsnPTa9ww4GZIshE4Lw5fNcL1yx2U+V9s/F/XFG0i6IYVbkc2d/qM+cs1thp8v4NLQWrKIRNZiV9kH6dtYDpSm6drL6sBfdZArSKTbbDH5tC9wFDHJ/3ZM5FEdxFn+zsEIpiVOVy3BTBtPFi8v4DPidlaJCzJ5ZDVp0PTSUxGws4bQ1FMapyRbHLaqry7RP+R/wEhvB5As/sSbIAAAAASUVORK5CYII=",
      width: 107,
      height: 24,
    },
  },
  async handler({ input }) {
    const options = isLinear(input.type)
      ? { bcid: input.type, text: input.text, scale: input.scale, height: input.height, includetext: input.includeText }
      : { bcid: input.type, text: input.text, scale: input.scale };
    const bwipjs = await loadBwip();
    let png: Buffer;
    try {
      png = await bwipjs.toBuffer(options);
    } catch (error) {
      throw fieldError("text", readableBwippError(error as Error));
    }
    return {
      type: input.type,
      text: input.text,
      png: `data:image/png;base64,${png.toString("base64")}`,
      width: png.readUInt32BE(16),
      height: png.readUInt32BE(20),
    };
  },
});

/** bwip-js reports input problems as "bwipp.ean13badCheckDigit#6915: Incorrect EAN-13 check digit provided". */
function readableBwippError(error: Error): string {
  return error.message.replace(/^bwip(p|-js)[.:][^:]*:\s*/, "") || "The text cannot be encoded in this symbology";
}
