import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { publishedKey, verifyReceipt } from "./verify.ts";

/**
 * `npm run verify-receipt -- --receipt <jws or file> --body <file> [--route "GET /v1/hash"] [--price 1000]
 * [--resource-url <url>] [--payer <address>]`: checks a receipt against the key the domain it names publishes
 * (`/.well-known/did.json`, fetched), the body's bytes as received (`-` reads stdin), and each claim given.
 * Prints the verdict as JSON; exits 0 when valid, 1 when not, 2 on bad usage.
 */
const { values } = parseArgs({
  options: {
    receipt: { type: "string" },
    body: { type: "string" },
    route: { type: "string" },
    price: { type: "string" },
    "resource-url": { type: "string" },
    payer: { type: "string" },
  },
});
if (!values.receipt || !values.body) {
  console.error(
    "usage: npm run verify-receipt -- --receipt <jws or file> --body <file, or - for stdin> [--route <method path>] [--price <atomic>] [--resource-url <url>] [--payer <address>]",
  );
  process.exit(2);
}
const receipt = existsSync(values.receipt) ? readFileSync(values.receipt, "utf8").trim() : values.receipt;
const body = readFileSync(values.body === "-" ? 0 : values.body);
const verdict = await verifyReceipt(
  receipt,
  body,
  { route: values.route, price: values.price, resourceUrl: values["resource-url"], payer: values.payer },
  publishedKey,
);
console.log(JSON.stringify(verdict, null, 2));
process.exit(verdict.valid ? 0 : 1);
