// Keccak-256 (Ethereum's, with the original 0x01 padding) in plain JavaScript, so the /duel page computes
// commitments in the browser and no secret leaves it. Lanes are BigInts: a handful of hashes, not a hot path.

const MASK = (1n << 64n) - 1n;
const ROUND_CONSTANTS = [
  "0000000000000001", "0000000000008082", "800000000000808a", "8000000080008000", "000000000000808b", "0000000080000001",
  "8000000080008081", "8000000000008009", "000000000000008a", "0000000000000088", "0000000080008009", "000000008000000a",
  "000000008000808b", "800000000000008b", "8000000000008089", "8000000000008003", "8000000000008002", "8000000000000080",
  "000000000000800a", "800000008000000a", "8000000080008081", "8000000000008080", "0000000080000001", "8000000080008008",
].map((hex) => BigInt(`0x${hex}`));
/** Rotation of lane (x, y), as ROTATIONS[x][y]. */
const ROTATIONS = [[0, 36, 3, 41, 18], [1, 44, 10, 45, 2], [62, 6, 43, 15, 61], [28, 55, 25, 21, 56], [27, 20, 39, 8, 14]];
const RATE = 136;

const rotl = (/** @type {bigint} */ v, /** @type {number} */ n) => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK);

/** @param {bigint[]} s the 25 lanes, lane (x, y) at x + 5y */
function permute(s) {
  for (const rc of ROUND_CONSTANTS) {
    const c = [0, 1, 2, 3, 4].map((x) => s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
    for (let i = 0; i < 25; i++) s[i] ^= c[(i + 4) % 5] ^ rotl(c[(i + 1) % 5], 1);
    const b = new Array(25);
    for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], ROTATIONS[x][y]);
    for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) s[x + 5 * y] = b[x + 5 * y] ^ (~b[((x + 1) % 5) + 5 * y] & MASK & b[((x + 2) % 5) + 5 * y]);
    s[0] ^= rc;
  }
}

/** @param {string} hex 0x-prefixed */
export const bytesOf = (hex) => Uint8Array.from((hex.slice(2).match(/../g) ?? []).map((b) => parseInt(b, 16)));

/** keccak256 of bytes, or of a 0x hex string's bytes, as 0x hex. @param {Uint8Array | string} input */
export function keccak256(input) {
  const data = typeof input === "string" ? bytesOf(input) : input;
  const padded = new Uint8Array(Math.floor(data.length / RATE + 1) * RATE);
  padded.set(data);
  padded[data.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const s = new Array(25).fill(0n);
  for (let block = 0; block < padded.length; block += RATE) {
    for (let lane = 0; lane < RATE / 8; lane++) {
      let v = 0n;
      for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(padded[block + lane * 8 + k]);
      s[lane] ^= v;
    }
    permute(s);
  }
  let out = "0x";
  for (let lane = 0; lane < 4; lane++) for (let k = 0; k < 8; k++) out += ((s[lane] >> BigInt(8 * k)) & 0xffn).toString(16).padStart(2, "0");
  return out;
}
