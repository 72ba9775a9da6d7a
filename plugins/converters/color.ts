import * as v from "valibot";
import { colord, extend, type Colord, type RgbaColor } from "colord";
import namesPlugin from "colord/plugins/names";
import hwbPlugin from "colord/plugins/hwb";
import lchPlugin from "colord/plugins/lch";
import oklabPlugin from "colord/plugins/oklab";
import oklchPlugin from "colord/plugins/oklch";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

extend([namesPlugin, hwbPlugin, lchPlugin, oklabPlugin, oklchPlugin]);

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function parse(field: string, text: string): Colord {
  const color = colord(text.trim().toLowerCase());
  if (!color.isValid()) {
    throw fieldError(
      field,
      `${text} is not a color: use hex, rgb(), hsl(), hwb(), lch(), oklab(), oklch() or a CSS color name`,
    );
  }
  return color;
}

/** WCAG 2 relative luminance, unrounded, so pass/fail flags are not decided by rounding. */
function luminance({ r, g, b }: RgbaColor): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** A translucent foreground is seen blended over the background. */
function over(front: RgbaColor, back: RgbaColor): RgbaColor {
  const mix = (f: number, b: number) => f * front.a + b * (1 - front.a);
  return { r: mix(front.r, back.r), g: mix(front.g, back.g), b: mix(front.b, back.b), a: 1 };
}

function contrast(color: Colord, against: Colord) {
  const back = { ...against.toRgb(), a: 1 };
  const front = over(color.toRgb(), back);
  const [hi, lo] = [luminance(front), luminance(back)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  return {
    against: against.alpha(1).toHex(),
    ratio: Math.floor(ratio * 100) / 100,
    aa: { normal: ratio >= 4.5, large: ratio >= 3 },
    aaa: { normal: ratio >= 7, large: ratio >= 4.5 },
    nonText: ratio >= 3,
  };
}

const alpha = v.pipe(v.number(), v.description("Opacity 0-1"));
const flags = v.object({ normal: v.boolean(), large: v.boolean() });

export default defineEndpoint({
  name: "color",
  method: "GET",
  price: "$0.001",
  summary: "Convert any CSS color to hex, rgb, hsl, hwb and oklch, with luminance, name and WCAG contrast",
  description:
    "Give against to get the WCAG 2 contrast ratio and AA/AAA pass flags for normal and large text (a translucent color is blended over against; against is taken as opaque). The ratio is truncated to 2 decimals; the flags use the exact ratio.",
  input: v.object({
    color: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(100),
      v.description("Any CSS color: #rgb, #rrggbbaa, rgb(), hsl(), hwb(), lch(), oklch(), or a name"),
    ),
    against: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(100),
        v.description("Second color for a contrast check, e.g. the background"),
      ),
    ),
  }),
  output: v.object({
    hex: v.pipe(v.string(), v.description("#rrggbb, or #rrggbbaa when translucent")),
    rgb: v.object({ r: v.number(), g: v.number(), b: v.number(), a: alpha }),
    hsl: v.object({ h: v.number(), s: v.number(), l: v.number(), a: alpha }),
    hwb: v.object({ h: v.number(), w: v.number(), b: v.number(), a: alpha }),
    css: v.object({ rgb: v.string(), hsl: v.string(), hwb: v.string(), oklch: v.string() }),
    luminance: v.pipe(v.number(), v.description("WCAG relative luminance 0-1, 4 decimals")),
    isDark: v.boolean(),
    name: v.pipe(v.nullable(v.string()), v.description("CSS name when the color is exactly a named color")),
    closestName: v.string(),
    contrast: v.optional(
      v.object({
        against: v.string(),
        ratio: v.number(),
        aa: v.pipe(flags, v.description("4.5:1 normal text, 3:1 large text")),
        aaa: v.pipe(flags, v.description("7:1 normal text, 4.5:1 large text")),
        nonText: v.pipe(v.boolean(), v.description("3:1 for UI components and graphics (WCAG 1.4.11)")),
      }),
    ),
  }),
  example: {
    input: { color: "rebeccapurple", against: "#ffffff" },
    output: {
      hex: "#663399",
      rgb: { r: 102, g: 51, b: 153, a: 1 },
      hsl: { h: 270, s: 50, l: 40, a: 1 },
      hwb: { h: 270, w: 20, b: 40, a: 1 },
      css: {
        rgb: "rgb(102, 51, 153)",
        hsl: "hsl(270, 50%, 40%)",
        hwb: "hwb(270 20% 40%)",
        oklch: "oklch(0.4403 0.1603 303.37)",
      },
      luminance: 0.0749,
      isDark: true,
      name: "rebeccapurple",
      closestName: "rebeccapurple",
      contrast: {
        against: "#ffffff",
        ratio: 8.4,
        aa: { normal: true, large: true },
        aaa: { normal: true, large: true },
        nonText: true,
      },
    },
  },
  handler({ input }) {
    const color = parse("color", input.color);
    const against = input.against === undefined ? undefined : parse("against", input.against);
    return {
      hex: color.toHex(),
      rgb: color.toRgb(),
      hsl: color.toHsl(),
      hwb: color.toHwb(),
      css: {
        rgb: color.toRgbString(),
        hsl: color.toHslString(),
        hwb: color.toHwbString(),
        oklch: color.toOklchString(),
      },
      luminance: round(luminance(color.toRgb()), 4),
      isDark: color.isDark(),
      name: color.toName() ?? null,
      closestName: color.toName({ closest: true })!,
      ...(against ? { contrast: contrast(color, against) } : {}),
    };
  },
});
