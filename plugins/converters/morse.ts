import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";

/** ITU-R M.1677-1: letters, the accented E, figures and the punctuation marks it defines. */
const itu: Record<string, string> = {
  A: ".-",
  B: "-...",
  C: "-.-.",
  D: "-..",
  E: ".",
  F: "..-.",
  G: "--.",
  H: "....",
  I: "..",
  J: ".---",
  K: "-.-",
  L: ".-..",
  M: "--",
  N: "-.",
  O: "---",
  P: ".--.",
  Q: "--.-",
  R: ".-.",
  S: "...",
  T: "-",
  U: "..-",
  V: "...-",
  W: ".--",
  X: "-..-",
  Y: "-.--",
  Z: "--..",
  É: "..-..",
  0: "-----",
  1: ".----",
  2: "..---",
  3: "...--",
  4: "....-",
  5: ".....",
  6: "-....",
  7: "--...",
  8: "---..",
  9: "----.",
  ".": ".-.-.-",
  ",": "--..--",
  ":": "---...",
  "?": "..--..",
  "'": ".----.",
  "-": "-....-",
  "/": "-..-.",
  "(": "-.--.",
  ")": "-.--.-",
  '"': ".-..-.",
  "=": "-...-",
  "+": ".-.-.",
  "@": ".--.-.",
};
const fromCode = new Map(Object.entries(itu).map(([char, code]) => [code, char]));
const UNKNOWN = "\uFFFD";

const looksLikeMorse = (text: string) => /^[\s.\-/|·•−–—_]+$/.test(text) && /[.\-·•−–—_]/.test(text);

function encode(text: string) {
  const unknown = new Set<string>();
  const words = text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) =>
      [...word.toUpperCase()]
        .map((char) => itu[char] ?? (unknown.add(char), ""))
        .filter(Boolean)
        .join(" "),
    );
  return { result: words.filter(Boolean).join(" / "), unknown: [...unknown] };
}

function decode(text: string) {
  const unknown = new Set<string>();
  const normalized = text
    .replace(/[·•]/g, ".")
    .replace(/[−–—_]/g, "-")
    .trim();
  const words = normalized
    .split(/\s*[/|]\s*|\s{2,}/)
    .filter(Boolean)
    .map((word) =>
      word
        .split(/\s+/)
        .map((code) => fromCode.get(code) ?? (unknown.add(code), UNKNOWN))
        .join(""),
    );
  return { result: words.join(" "), unknown: [...unknown] };
}

export default defineEndpoint({
  name: "morse",
  method: "GET",
  price: "$0.001",
  summary: "Encode text to ITU Morse code or decode Morse back to text",
  description:
    'Morse is written with . and -, letters separated by a space and words by " / " (| or two spaces also split words when decoding). Characters outside ITU-R M.1677-1 are left out of an encoding and listed in unknown; unknown codes decode to U+FFFD.',
  input: v.object({
    text: v.pipe(v.string(), v.maxLength(10_000), v.description("Text to encode, or Morse code to decode")),
    direction: v.optional(
      v.pipe(
        v.picklist(["auto", "encode", "decode"]),
        v.description("auto decodes text made only of dots, dashes, spaces and slashes"),
      ),
      "auto",
    ),
  }),
  output: v.object({
    direction: v.picklist(["encode", "decode"]),
    result: v.string(),
    unknown: v.pipe(
      v.array(v.string()),
      v.description("Distinct characters (encode) or codes (decode) with no ITU meaning"),
    ),
  }),
  example: {
    input: { text: "SOS, help!", direction: "auto" },
    output: { direction: "encode", result: "... --- ... --..-- / .... . .-.. .--.", unknown: ["!"] },
  },
  handler({ input }) {
    const direction = input.direction === "auto" ? (looksLikeMorse(input.text) ? "decode" : "encode") : input.direction;
    return { direction, ...(direction === "decode" ? decode(input.text) : encode(input.text)) };
  },
});
