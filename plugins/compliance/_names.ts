/** Lower case, accents and punctuation gone, one space between words: "Al-Qa'ida, Inc." -> "al qa ida inc". */
export function normalizeName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export const tokensOf = (name: string) => normalizeName(name).split(" ").filter(Boolean);

/** Word order does not matter to a name ("YAN Xiaobing" is "Xiaobing Yan"): the strict comparison key. */
export const nameKey = (tokens: string[]) => [...tokens].sort().join(" ");

/** EVM and bech32 addresses are case-insensitive; base58 ones (Bitcoin legacy, TRON, Monero) are not. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  if (/^0x[0-9a-f]{40}$/i.test(trimmed)) return trimmed.toLowerCase();
  if (
    /^[a-z]{1,10}1[02-9ac-hj-np-z]+$/i.test(trimmed) &&
    (trimmed === trimmed.toLowerCase() || trimmed === trimmed.toUpperCase())
  )
    return trimmed.toLowerCase();
  return trimmed;
}

/** Jaro-Winkler similarity of two words, 0..1 (prefix scale 0.1, up to 4 characters). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (!a.length || !b.length) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aHits = new Array<boolean>(a.length).fill(false);
  const bHits = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = Math.max(0, i - window); j < Math.min(b.length, i + window + 1); j++) {
      if (bHits[j] || a[i] !== b[j]) continue;
      aHits[i] = bHits[j] = true;
      matches++;
      break;
    }
  }
  if (!matches) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aHits[i]) continue;
    while (!bHits[j]) j++;
    if (a[i] !== b[j++]) transpositions++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}
