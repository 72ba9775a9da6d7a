import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAbi, type Abi, type Hex } from "viem";

export type CompiledContract = { abi: Abi; bytecode: Hex; deployedBytecode: Hex };

/** The token's interface, typed for viem; the test checks it against what solc emits. */
export const testUsdcAbi = parseAbi([
  "constructor(string tokenName, string tokenVersion)",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function owner() view returns (address)",
  "function balanceOf(address account) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function nonces(address holder) view returns (uint256)",
  "function PERMIT_TYPEHASH() view returns (bytes32)",
  "function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
  "function permit(address holder, address spender, uint256 value, uint256 deadline, bytes signature)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)",
  "function RECEIVE_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)",
  "function CANCEL_AUTHORIZATION_TYPEHASH() view returns (bytes32)",
  "function mint(address to, uint256 value)",
  "function transfer(address to, uint256 value) returns (bool)",
  "function approve(address spender, uint256 value) returns (bool)",
  "function transferFrom(address from, address to, uint256 value) returns (bool)",
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
  "function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
  "function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);

const require = createRequire(import.meta.url);
/** Beside the installed packages (node_modules/.cache), wherever this module runs from (sources or dist/). */
const cacheDir = join(dirname(dirname(require.resolve("solc/package.json"))), ".cache", "devnet");

const compilerSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
};

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
};

/** Compiles TestUSDC.sol, reusing an on-disk artifact keyed by source, settings and solc version. */
export const compileTestUsdc = () => compileContract("TestUSDC");

/** Compiles `<name>.sol` (contract `<name>`) from `dir`, beside this file by default, with the same on-disk cache. */
export async function compileContract(
  name: string,
  dir: URL = new URL("./", import.meta.url),
): Promise<CompiledContract> {
  const source = await readFile(fileURLToPath(new URL(`./${name}.sol`, dir)), "utf8");
  const solcVersion = (require("solc/package.json") as { version: string }).version;
  const key = createHash("sha256")
    .update(JSON.stringify({ source, solcVersion, compilerSettings }))
    .digest("hex")
    .slice(0, 32);
  const cachePath = `${cacheDir}${name}-${key}.json`;

  const cached = await readCachedArtifact(cachePath);
  if (cached) return cached;

  const artifact = await compileWithSolc(name, source);
  await mkdir(cacheDir, { recursive: true });
  // Write then rename, so parallel test processes (and two chains compiling at once in one) never read a half-written file.
  const tempPath = `${cachePath}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(tempPath, JSON.stringify(artifact));
  await rename(tempPath, cachePath);
  return artifact;
}

async function readCachedArtifact(path: string): Promise<CompiledContract | undefined> {
  try {
    const artifact = JSON.parse(await readFile(path, "utf8")) as CompiledContract;
    return Array.isArray(artifact.abi) &&
      artifact.bytecode?.startsWith("0x") &&
      artifact.deployedBytecode?.startsWith("0x")
      ? artifact
      : undefined;
  } catch {
    return undefined;
  }
}

async function compileWithSolc(name: string, source: string): Promise<CompiledContract> {
  // Loaded lazily: solc-js is a large emscripten module and a warm start never needs it.
  const { default: solc } = await import("solc");
  const input = {
    language: "Solidity",
    sources: { [`${name}.sol`]: { content: source } },
    settings: compilerSettings,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`${name}.sol failed to compile:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  const contract = output.contracts?.[`${name}.sol`]?.[name];
  if (!contract) throw new Error(`solc produced no ${name} contract`);
  return {
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
  };
}
