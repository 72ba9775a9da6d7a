import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tls from "node:tls";

export interface TestChain {
  caPem: string;
  leafPem: string;
  leafKey: string;
}

/**
 * A test CA and a leaf certificate for 127.0.0.1 and localhost, made with the openssl CLI in a temp dir.
 * The leaf carries an OCSP URL and a CRL distribution point so the certificate tools have them to find.
 */
export function makeTestChain(leafDays = 20): TestChain {
  const dir = mkdtempSync(join(tmpdir(), "web-tls-"));
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  try {
    run(
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
      "-days",
      "60",
      "-subj",
      "/CN=Web Test Root CA/O=x402 tests",
    );
    run(
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "leaf.key",
      "-out",
      "leaf.csr",
      "-subj",
      "/CN=localhost/O=x402 tests",
    );
    writeFileSync(
      join(dir, "leaf.ext"),
      [
        "basicConstraints=CA:FALSE",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "authorityInfoAccess=OCSP;URI:http://ocsp.test.invalid/,caIssuers;URI:http://ca.test.invalid/root.crt",
        "crlDistributionPoints=URI:http://crl.test.invalid/leaf.crl",
      ].join("\n"),
    );
    run(
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "leaf.crt",
      "-days",
      String(leafDays),
      "-sha256",
      "-extfile",
      "leaf.ext",
    );
    const read = (name: string) => readFileSync(join(dir, name), "utf8");
    return { caPem: read("ca.crt"), leafPem: read("leaf.crt"), leafKey: read("leaf.key") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TCP listener on 127.0.0.1 that speaks TLS with the test chain, or, in "reset" mode, drops every
 * connection before any handshake (a target that fails). `connections` counts who came.
 */
export async function startTlsServer(chain: TestChain) {
  const secure = tls.createServer({ cert: chain.leafPem + chain.caPem, key: chain.leafKey }, (socket) => socket.end());
  secure.on("tlsClientError", () => {});
  const state = { mode: "tls" as "tls" | "reset", connections: 0 };
  const server = net.createServer((socket) => {
    state.connections++;
    if (state.mode === "reset") return void socket.destroy();
    secure.emit("connection", socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
