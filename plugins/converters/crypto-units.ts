import * as v from "valibot";
import { formatUnits } from "viem";
import { defineEndpoint } from "../../core/endpoint.ts";
import { fieldError } from "../../core/runtime/errors.ts";

type Family = "ethereum" | "bitcoin" | "solana" | "token";
/** Decimal places of each unit above its chain's smallest unit; `token` takes `decimals` from the input. */
const unitTable = {
  wei: { family: "ethereum", exponent: 0 },
  kwei: { family: "ethereum", exponent: 3 },
  mwei: { family: "ethereum", exponent: 6 },
  gwei: { family: "ethereum", exponent: 9 },
  szabo: { family: "ethereum", exponent: 12 },
  finney: { family: "ethereum", exponent: 15 },
  ether: { family: "ethereum", exponent: 18 },
  eth: { family: "ethereum", exponent: 18 },
  sats: { family: "bitcoin", exponent: 0 },
  sat: { family: "bitcoin", exponent: 0 },
  bits: { family: "bitcoin", exponent: 2 },
  mbtc: { family: "bitcoin", exponent: 5 },
  btc: { family: "bitcoin", exponent: 8 },
  lamports: { family: "solana", exponent: 0 },
  sol: { family: "solana", exponent: 9 },
  base: { family: "token", exponent: 0 },
  token: { family: "token", exponent: undefined },
} as const satisfies Record<string, { family: Family; exponent: number | undefined }>;
type UnitName = keyof typeof unitTable;
const unitNames = Object.keys(unitTable) as UnitName[];
/** The units listed in `all`, one per alias group. */
const canonical: UnitName[] = [
  "wei",
  "kwei",
  "mwei",
  "gwei",
  "szabo",
  "finney",
  "ether",
  "sats",
  "bits",
  "mbtc",
  "btc",
  "lamports",
  "sol",
  "base",
  "token",
];

/** The value as an integer count of base units, or an error when it has more decimals than the unit allows. */
function toBaseUnits(value: string, exponent: number, unit: string): bigint {
  const [, sign, whole, fraction = "", power = "0"] = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(value)!;
  const digits = BigInt(`${whole}${fraction}` || "0");
  const shift = exponent + Number(power) - fraction.length;
  if (shift >= 0) return (sign ? -1n : 1n) * digits * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  if (digits % divisor !== 0n)
    throw fieldError("value", `${value} ${unit} is not a whole number of base units: too many decimals`);
  return (sign ? -1n : 1n) * (digits / divisor);
}

export default defineEndpoint({
  name: "crypto-units",
  method: "GET",
  price: "$0.001",
  summary: "Convert exact amounts between wei/gwei/ether, sats/btc, lamports/sol or any token decimals",
  description:
    "Amounts are decimal strings and all math is exact integer math. An amount that does not come to a whole number of base units is rejected rather than rounded. For a token, use from/to base and token with decimals.",
  input: v.object({
    value: v.pipe(
      v.string(),
      v.maxLength(100),
      v.regex(/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d{1,3})?$/, "Must be a decimal number such as 1.5, 1500 or 1e18"),
      v.description("Amount as a decimal string, e.g. 1.5 or 1e18"),
    ),
    from: v.pipe(v.picklist(unitNames), v.description("Unit of value")),
    to: v.pipe(v.picklist(unitNames), v.description("Unit to convert to (same chain as from)")),
    decimals: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(77),
        v.description("Decimals of the token unit (e.g. 6 for USDC); required with token"),
      ),
    ),
  }),
  output: v.object({
    value: v.string(),
    from: v.string(),
    to: v.string(),
    result: v.pipe(v.string(), v.description("The amount in the target unit, exact")),
    baseUnits: v.pipe(
      v.string(),
      v.description("The amount as an integer of the smallest unit (wei, sats, lamports, token base units)"),
    ),
    all: v.pipe(v.record(v.string(), v.string()), v.description("The amount in every unit of the same chain")),
  }),
  example: {
    input: { value: "1.5", from: "ether", to: "gwei" },
    output: {
      value: "1.5",
      from: "ether",
      to: "gwei",
      result: "1500000000",
      baseUnits: "1500000000000000000",
      all: {
        wei: "1500000000000000000",
        kwei: "1500000000000000",
        mwei: "1500000000000",
        gwei: "1500000000",
        szabo: "1500000",
        finney: "1500",
        ether: "1.5",
      },
    },
  },
  handler({ input }) {
    const from = unitTable[input.from];
    const to = unitTable[input.to];
    if (from.family !== to.family)
      throw fieldError("to", `Cannot convert ${input.from} (${from.family}) to ${input.to} (${to.family})`);
    if (from.family === "token" && input.decimals === undefined)
      throw fieldError("decimals", "decimals is required for token conversions");
    const exponentOf = (unit: UnitName) => unitTable[unit].exponent ?? input.decimals!;
    const base = toBaseUnits(input.value, exponentOf(input.from), input.from);
    const all = Object.fromEntries(
      canonical
        .filter((unit) => unitTable[unit].family === from.family)
        .map((unit) => [unit, formatUnits(base, exponentOf(unit))]),
    );
    return {
      value: input.value,
      from: input.from,
      to: input.to,
      result: formatUnits(base, exponentOf(input.to)),
      baseUnits: base.toString(),
      all,
    };
  },
});
