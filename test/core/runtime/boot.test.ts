// test: own-process: boots the service as processes
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { tsNodeArgs } from "../../helpers/ts-node.ts";
import pino from "pino";
import { defineSettings, definePlugin } from "../../../core/endpoint.ts";
import { readConfig } from "../../../core/runtime/config.ts";
import { listFamilies } from "../../../core/runtime/load.ts";
import { createService } from "../../../core/runtime/server.ts";
import { createClosedGate } from "../../../core/payment/gate.ts";
import { x402Offers } from "../../../core/x402/offers.ts";
import { devAccount } from "../../../core/x402/devnet/index.ts";
import { closedAfterTest, startTestService, testPaymentOption } from "../../helpers/service.ts";

test("PLUGINS loads only the named families, and the built-in core family (batch, service report, receipt check) always", async () => {
  const service = await startTestService({ plugins: ["converters"] });
  assert.ok(service.runtime.endpoints.length > 0);
  assert.deepEqual([...new Set(service.runtime.endpoints.map((e) => e.family))], ["converters", "core"]);
  assert.deepEqual(
    service.runtime.endpoints.filter((e) => e.family === "core").map((e) => e.name),
    ["batch", "service", "receipts/verify"],
  );
});

test("PLUGINS with an unknown family refuses to boot and names the valid families", async () => {
  const run = spawnSync(process.execPath, tsNodeArgs("core/main.ts"), {
    env: { ...process.env, PLUGINS: "converters,nope", LOG_LEVEL: "silent" },
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /Unknown plugin family in PLUGINS: nope\. Valid families: /);
  for (const family of await listFamilies()) assert.ok(run.stderr.includes(family), family);
});

test("the families' own settings are checked at boot too, every bad value named", () => {
  const run = spawnSync(process.execPath, tsNodeArgs("core/main.ts"), {
    env: {
      ...process.env,
      PLUGINS: "duel,onchain,state,swap,web",
      LOG_LEVEL: "silent",
      SWAP_RACE_DEADLINE_MS: "5",
      WATCH_MAX_PER_WALLET: "lots",
      DNS_SERVERS: "not-a-server",

      DUEL_ESCROW_ADDRESS: "0x12",
    },
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(run.status, 1);
  for (const problem of [
    "swap: SWAP_RACE_DEADLINE_MS must be an integer from 200 to 20000",
    "state: WATCH_MAX_PER_WALLET must be an integer from 1 to 10000",
    'web: DNS_SERVERS must be comma-separated DNS server addresses (ip or ip:port); "not-a-server" is not',
    "duel: DUEL_ESCROW_ADDRESS must be a 0x address",
  ]) {
    assert.ok(run.stderr.includes(problem), `${problem}\n${run.stderr}`);
  }
});

test("good settings boot: the readers accept what the README documents", async () => {
  const env = {
    SWAP_RACE_DEADLINE_MS: "3000",
    WATCH_MAX_PER_WALLET: "5",
    DNS_SERVERS: "127.0.0.1:5353,[::1]:53",
    UPSTREAM_BASE_RPC_URL: "http://127.0.0.1:8545",
  };
  const service = await startTestService({ plugins: ["onchain", "state", "swap", "web"], env });
  assert.ok(service.runtime.endpoints.some((e) => e.family === "swap"));
  assert.equal(
    service.runtime.families.get("state")?.settings &&
      (service.runtime.families.get("state")!.settings as { watchesPerWallet: number }).watchesPerWallet,
    5,
  );
});

test("an upstream URL that is not http(s) refuses to boot", () => {
  assert.throws(
    () => readConfig({ UPSTREAM_BASE_RPC_URL: "ftp://files.example.org" }),
    /UPSTREAM_BASE_RPC_URL: must be an http\(s\) URL/,
  );
});

test("configuration is checked at boot and every problem is listed", () => {
  assert.throws(
    () => readConfig({ PORT: "eighty", STORE_URL: "mysql://x", PAY_TO: "0x12" }),
    (e: Error) => /PORT/.test(e.message) && /STORE_URL/.test(e.message) && /PAY_TO/.test(e.message),
  );
});

test("configuration defaults: port 4021 and the embedded devnet", () => {
  const config = readConfig({});
  assert.equal(config.port, 4021);
  assert.equal(config.payment.facilitator, "devnet");
  assert.equal(config.baseUrl, "http://localhost:4021");
  assert.equal(config.storeUrl, undefined);
});

test("the rate limit answers 429 with Retry-After before any payment", async () => {
  const service = await startTestService({ plugins: ["converters"], env: { RATE_LIMIT_PER_MINUTE: "3" } });
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await service.request("/v1/hash?text=a")).status);
  assert.deepEqual(statuses, [402, 402, 402, 429, 429]);
  const limited = await service.request("/v1/hash?text=a");
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  assert.equal((await limited.json()).error.code, "rate_limited");
});

/** A family with a contract on the devnet and a setting naming it, counting how often boot reads its settings. */
function escrowFamily() {
  const reads = { count: 0 };
  const settings = defineSettings((env) => {
    reads.count++;
    const escrow = env.TOY_ESCROW_ADDRESS;
    if (escrow && !/^0x[0-9a-fA-F]{40}$/.test(escrow)) throw new Error("TOY_ESCROW_ADDRESS must be a 0x address");
    return { escrow };
  });
  const plugin = definePlugin({
    family: "toy",
    settings,
    devnet: {
      contracts: [{ name: "ToyEscrow", dir: new URL("./", import.meta.url), args: () => [] }],
      settings: ({ contracts }) => ({ TOY_ESCROW_ADDRESS: contracts.ToyEscrow }),
    },
  });
  return { plugin, reads };
}

const planned: `0x${string}` = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const plan = () => ({ chainId: 84532, payer: devAccount(2), contracts: { ToyEscrow: planned } });

/** createService with a devnet that deploys ToyEscrow at `deployedAt`, counting the payment setups started and stopped. */
async function bootWithDevnet(env: Record<string, string>, deployedAt: `0x${string}`) {
  const { plugin, reads } = escrowFamily();
  const setups = { started: 0, stopped: 0 };
  const config = readConfig({ LOG_LEVEL: "silent", JOBS: "off", ...env });
  const booting = createService({
    config,
    log: pino({ level: "silent" }),
    plugins: [plugin],
    devnet: plan,
    payments: async () => {
      setups.started++;
      return {
        gate: createClosedGate(x402Offers([testPaymentOption], config.baseUrl)),
        devnet: { rpcUrl: "http://127.0.0.1:9", chainId: 84532, contracts: { ToyEscrow: deployedAt } },
        stop: async () => void setups.stopped++,
      };
    },
  });
  return { booting, reads, setups };
}

test("boot reads a family's settings once, with what the devnet will hold, before the devnet starts", async () => {
  const { booting, reads, setups } = await bootWithDevnet({}, planned);
  const service = closedAfterTest(await booting);
  assert.equal(reads.count, 1, "the settings are read once");
  assert.equal(setups.started, 1);
  assert.deepEqual(service.runtime.families.get("toy")?.settings, { escrow: planned });

  const configured = "0x0000000000000000000000000000000000000001";
  const own = await bootWithDevnet({ TOY_ESCROW_ADDRESS: configured }, planned);
  const ours = closedAfterTest(await own.booting);
  assert.deepEqual(ours.runtime.families.get("toy")?.settings, { escrow: configured }, "configuration wins");
});

test("a bad setting refuses boot before the devnet starts", async () => {
  const { booting, reads, setups } = await bootWithDevnet({ TOY_ESCROW_ADDRESS: "0x12" }, planned);
  await assert.rejects(booting, /toy: TOY_ESCROW_ADDRESS must be a 0x address/);
  assert.equal(reads.count, 1);
  assert.equal(setups.started, 0, "no devnet was started");
});

test("a devnet that deployed a contract elsewhere than the settings were told refuses boot, and is stopped", async () => {
  const { booting, setups } = await bootWithDevnet({}, "0x0000000000000000000000000000000000000002");
  await assert.rejects(
    booting,
    /the devnet did not deploy ToyEscrow at 0x5FbDB2315678afecb367f032d93F642f64180aa3 as planned/,
  );
  assert.deepEqual(setups, { started: 1, stopped: 1 });
});
