/**
 * `npm run verify-play -- [--rpc <url>] <fairness JSON | play result JSON | file>`: recomputes a result from its
 * blocks' hashes and salt with the same code the server and the /arcade page run, then asks the payment chain
 * (your node with --rpc, else the network's public RPC) that each block has that number and hash and came after
 * its stage was accepted. Exit code 0 when everything matches, 1 on a mismatch, 2 when it could not check.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { jsonRpcChain, verifyFairness, verifyOnChain } from "./_fair.js";

const PUBLIC_RPC: Record<string, string> = {
  "eip155:8453": "https://mainnet.base.org",
  "eip155:84532": "https://sepolia.base.org",
};

async function readRecord(arg: string | undefined): Promise<any> {
  if (!arg)
    throw new Error(
      "usage: npm run verify-play -- [--rpc <url>] '<fairness JSON>' (or a play result, or a file holding either)",
    );
  const parsed = JSON.parse(arg.trim().startsWith("{") ? arg : await readFile(arg, "utf8"));
  // The fairness record itself, a play result, or the whole {meta, data} answer.
  return parsed?.data?.fairness ?? parsed?.fairness ?? parsed;
}

try {
  const { values, positionals } = parseArgs({ options: { rpc: { type: "string" } }, allowPositionals: true });
  const record = await readRecord(positionals[0]);
  const rpc = values.rpc ?? PUBLIC_RPC[record.network];
  if (!rpc) throw new Error(`no public RPC known for ${record.network}: pass --rpc <a node of that network>`);
  const draws = await verifyFairness(record);
  const chain = await verifyOnChain(record, jsonRpcChain(rpc));
  for (const stage of record.stages ?? [])
    console.log(
      `stage   ${stage.action} on block ${stage.blockNumber} ${stage.blockHash}: ${JSON.stringify(stage.drawn)}`,
    );
  for (const [name, value] of Object.entries(draws.recomputed))
    console.log(`${name.padEnd(7)} ${JSON.stringify(value)}`);
  if (draws.ok && chain.ok) {
    console.log(
      `OK: ${record.network} has these blocks, mined after each stage was accepted, and with salt ${JSON.stringify(record.salt)} they give exactly this result (chain asked: ${rpc})`,
    );
  } else {
    for (const problem of [...draws.problems, ...chain.problems]) console.log(`MISMATCH ${problem}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
}
