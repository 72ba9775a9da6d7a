import { createHash } from "node:crypto";
import * as v from "valibot";
import { keccak256, toBytes } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";

const algos = ["sha256", "sha512", "sha3-256", "sha3-512", "keccak256", "md5", "sha1"] as const;

export default defineEndpoint({
  name: "hash",
  method: "GET",
  price: "$0.001",
  mcp: true,
  summary: "Hash text with sha256, sha512, sha3, keccak256, md5 or sha1",
  description: "md5 and sha1 are offered for checksums only; they are not safe for security uses.",
  input: v.object({
    text: v.pipe(v.string(), v.maxLength(100_000), v.description("Text to hash, UTF-8")),
    algo: v.optional(v.picklist(algos), "sha256"),
  }),
  output: v.object({ algo: v.picklist(algos), hex: v.string(), base64: v.string(), bytes: v.number() }),
  example: {
    input: { text: "hi", algo: "sha256" },
    output: {
      algo: "sha256",
      hex: "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4",
      base64: "j0NDRmSPa5bfid2pAcUXaxCm2Dlh3TwayItZstwyeqQ=",
      bytes: 2,
    },
  },
  handler({ input }) {
    const digest =
      input.algo === "keccak256"
        ? Buffer.from(toBytes(keccak256(toBytes(input.text))))
        : createHash(input.algo).update(input.text, "utf8").digest();
    return {
      algo: input.algo,
      hex: digest.toString("hex"),
      base64: digest.toString("base64"),
      bytes: Buffer.byteLength(input.text),
    };
  },
});
