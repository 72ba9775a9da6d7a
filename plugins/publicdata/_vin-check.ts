/** The value of each letter in the check-digit sum (ISO 3779); I, O and Q never appear. */
const transliteration: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** The North American check digit (position 9); other markets do not use it, so a mismatch is reported, not refused. */
export function checkDigitValid(vin: string): boolean {
  const sum = [...vin].reduce(
    (total, ch, i) => total + (/\d/.test(ch) ? Number(ch) : transliteration[ch]) * weights[i],
    0,
  );
  const digit = sum % 11 === 10 ? "X" : String(sum % 11);
  return vin[8] === digit;
}
