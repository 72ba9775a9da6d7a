/**
 * `npm run verify-play -- <fairness JSON | play result JSON | file>`: recomputes a result from its block hash
 * and salt with the same sampling code the server and the /arcade page run. Exit code 0 when it matches.
 */
import { readFile } from "node:fs/promises";
import { verifyFairness } from "./_fair.js";

async function readArgument(arg: string | undefined): Promise<any> {
  if (!arg) throw new Error("usage: npm run verify-play -- '<fairness JSON>' (or a play result, or a file holding either)");
  const text = arg.trim().startsWith("{") ? arg : await readFile(arg, "utf8");
  const parsed = JSON.parse(text);
  // Accept the fairness record itself, a play result, or the whole {meta, data} answer.
  return parsed?.data?.fairness ?? parsed?.fairness ?? parsed;
}

try {
  const record = await readArgument(process.argv[2]);
  const check = await verifyFairness(record);
  console.log(`seed    ${check.seedHex}`);
  for (const [name, value] of Object.entries(check.recomputed)) console.log(`${name.padEnd(7)} ${JSON.stringify(value)}`);
  if (check.ok) {
    console.log(`OK: block ${record.blockNumber} (${record.network}) hash ${record.blockHash} and salt ${JSON.stringify(record.salt)} give exactly this result`);
  } else {
    for (const problem of check.problems) console.log(`MISMATCH ${problem}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
}
