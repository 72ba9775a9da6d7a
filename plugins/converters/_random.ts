import { randomBytes, randomInt } from "node:crypto";

/** A uniform integer in [min, max] (safe integers), by rejection sampling so no value is favoured. */
export function uniformInt(min: number, max: number): number {
  if (max - min < 2 ** 48 - 1) return randomInt(min, max + 1);
  const range = BigInt(max) - BigInt(min) + 1n;
  const span = 2n ** 64n;
  const limit = span - (span % range);
  for (;;) {
    const draw = BigInt(`0x${randomBytes(8).toString("hex")}`);
    if (draw < limit) return Number(BigInt(min) + (draw % range));
  }
}

/** A uniform float in [0, 1) with 53 random bits. */
export function uniformUnit(): number {
  const bytes = randomBytes(8);
  const high = bytes.readUInt32BE(0) >>> 5;
  const low = bytes.readUInt32BE(4) >>> 6;
  return (high * 2 ** 26 + low) / 2 ** 53;
}

export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
