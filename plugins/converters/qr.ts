import * as v from "valibot";
import type QRCode from "qrcode";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";
import { lazy } from "../../core/shared.ts";

/** The QR encoder and its PNG writer, loaded on the first call rather than at boot. */
const qrcode = lazy(async () => (await import("qrcode")).default);

const levels = ["L", "M", "Q", "H"] as const;
const hexColor = (fallback: string, what: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^#?[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/, "must be a hex colour like 000000 or #000000ff"),
      v.description(what),
    ),
    fallback,
  );

export default defineEndpoint({
  name: "qr",
  method: "GET",
  price: "$0.005",
  summary: "Make a QR code from text: a PNG data URL and an SVG string",
  description:
    "A QR code holds at most 2953 bytes at level L, 2331 at M, 1663 at Q and 1273 at H; longer text answers 400. " +
    "Higher levels survive more damage but need a larger code.",
  input: v.object({
    text: v.pipe(v.string(), v.minLength(1), v.maxLength(2953), v.description("Text or URL to encode (UTF-8)")),
    ecc: v.optional(
      v.pipe(
        v.picklist(levels),
        v.description("Error correction level: L 7%, M 15%, Q 25%, H 30% of the code may be damaged"),
      ),
      "M",
    ),
    size: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(64),
        v.maxValue(2048),
        v.description("Width and height of the PNG in pixels"),
      ),
      256,
    ),
    margin: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(16),
        v.description("Quiet zone around the code, in modules"),
      ),
      4,
    ),
    dark: hexColor("000000", "Colour of the dark modules, hex RGB or RGBA"),
    light: hexColor("ffffff", "Background colour, hex RGB or RGBA"),
  }),
  output: v.object({
    text: v.string(),
    ecc: v.picklist(levels),
    version: v.pipe(v.number(), v.description("QR version 1-40 (the code's grid size)")),
    modules: v.pipe(v.number(), v.description("Modules per side, without the margin")),
    size: v.number(),
    png: v.pipe(v.string(), v.description("data:image/png;base64,... URL")),
    svg: v.pipe(v.string(), v.description("SVG document, scalable")),
  }),
  example: {
    input: { text: "hi", ecc: "L", size: 64, margin: 1 },
    output: {
      text: "hi",
      ecc: "L",
      version: 1,
      modules: 21,
      size: 64,
      png: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAAAklEQVR4AewaftIAAAIRSURBVOXBUW7cSBTAQLKh+1+ZawH7AEOQJ8rEcT66yj6wscXmFps7+ETlO1VcqYyKOyqniqHynSpOi80tNnfwhYp3qNxROVXcURkVr1S8Q+VqsbnF5g4eUHml4lcqTiqjYlS8Q+WVilcWm1ts7uCHqJwq7qiMip+y2NzBD6m4Urmjcqr42xabW2zu4IGKP6XySsVQeariTyw2t9jcwRdU/oaKofIOle+y2Nxic/aBf0TllYq/bbG5xeYOPlF5R8VQearijspJZVQMlVExVE4VQ2VUXC02d/CFiqEyKq5URsVTKqPiquJ3VFxVDJVRcVpsbrE5+8ANlVHxisqvVFyp3Kk4qYyKOypPVVwtNrfY3MEnKndUriruVAyVVypeqbijcqfipDIqXllsbrG5gy9UDJVRcVK5ozIqrlRGxVAZFSeVUTEqhspTKqPitNicfeAHqJwqhso7Ku6onCruqIyK02Jzi80dfKLynSpeqbijcqoYKkNlVIyKK5VRcbXY3GJzB1+oeIfKnYqTylMqdyruqJwqRsVQGRWnxeYWmzt4QOWVil9ROVUMlVExVE4Vd1RGxag4qYyKUXG12Nxicwc/TGVU/GuLzR38sIo7KqPipDIqRsVQ+ROLzS02d/BAxXdRGRWj4qrijsqdipPKU4vNLTZnH/ifyneqGCpPVZxURsUdlacqrhabW2zOPrCxxeb+A7IlL3AfR9B0AAAAAElFTkSuQmCC",
      svg: '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 23 23" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h23v23H0z"/><path stroke="#000000" d="M1 1.5h7m2 0h1m2 0h1m1 0h7M1 2.5h1m5 0h1m1 0h1m2 0h1m2 0h1m5 0h1M1 3.5h1m1 0h3m1 0h1m2 0h1m4 0h1m1 0h3m1 0h1M1 4.5h1m1 0h3m1 0h1m1 0h1m2 0h1m2 0h1m1 0h3m1 0h1M1 5.5h1m1 0h3m1 0h1m3 0h3m1 0h1m1 0h3m1 0h1M1 6.5h1m5 0h1m1 0h3m1 0h1m1 0h1m5 0h1M1 7.5h7m1 0h1m1 0h1m1 0h1m1 0h7M11 8.5h3M1 9.5h5m1 0h4m2 0h2m1 0h1m1 0h1m1 0h1M1 10.5h1m1 0h1m2 0h1m4 0h1m1 0h1m2 0h1m4 0h1M2 11.5h1m3 0h3m2 0h2m1 0h1m2 0h4M1 12.5h4m1 0h1m1 0h1m7 0h2m1 0h1M1 13.5h1m1 0h1m1 0h3m2 0h1m1 0h1m1 0h1m2 0h1m1 0h1m1 0h1M9 14.5h1m1 0h5m2 0h1m2 0h1M1 15.5h7m1 0h1m3 0h1m1 0h2m3 0h1M1 16.5h1m5 0h1m2 0h6m2 0h1m2 0h1M1 17.5h1m1 0h3m1 0h1m1 0h1m1 0h1m1 0h1m2 0h1m2 0h1M1 18.5h1m1 0h3m1 0h1m1 0h2m2 0h1m2 0h1m2 0h1M1 19.5h1m1 0h3m1 0h1m1 0h1m2 0h1m1 0h1m2 0h3M1 20.5h1m5 0h1m1 0h2m5 0h2m1 0h1M1 21.5h7m1 0h4m1 0h1m2 0h4"/></svg>\n',
    },
  },
  async handler({ input }) {
    const QRCode = await qrcode();
    const color = { dark: `#${input.dark.replace(/^#/, "")}`, light: `#${input.light.replace(/^#/, "")}` };
    const options = { errorCorrectionLevel: input.ecc, margin: input.margin, width: input.size, color };
    let code: QRCode.QRCode;
    try {
      code = QRCode.create(input.text, { errorCorrectionLevel: input.ecc });
    } catch (error) {
      throw fieldError("text", `${(error as Error).message} at error correction level ${input.ecc}`);
    }
    const [png, svg] = await Promise.all([
      QRCode.toDataURL(input.text, options),
      QRCode.toString(input.text, { ...options, type: "svg" }),
    ]);
    return {
      text: input.text,
      ecc: input.ecc,
      version: code.version,
      modules: code.modules.size,
      size: input.size,
      png,
      svg,
    };
  },
});
