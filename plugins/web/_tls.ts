import { X509Certificate } from "node:crypto";
import net from "node:net";
import tls, { type PeerCertificate } from "node:tls";
import type { Egress } from "../../core/endpoint.ts";
import { probeUrl, targetError } from "../_shared/target.ts";

export interface Handshake {
  host: string;
  port: number;
  /** The checked address the connection went to. */
  address: string;
  /** The chain verified against the system's trusted roots. */
  authorized: boolean;
  authorizationError: string | null;
  hostnameMatch: boolean;
  protocol: string | null;
  cipher: { name: string; standardName: string; version: string };
  /** Leaf first, as the server sent it (and as far as it can be linked). */
  chain: X509Certificate[];
}

const handshakeTimeoutMs = 8_000;

/**
 * Checks host:port with the egress guard, then completes one TLS handshake with the checked address
 * (SNI = the host) without trusting or rejecting anything, so a broken certificate can be reported.
 */
export async function tlsHandshake(
  egress: Egress,
  rawHost: string,
  port: number,
  signal: AbortSignal,
): Promise<Handshake> {
  const host = rawHost.toLowerCase().replace(/\.$/, "");
  const { address } = await egress.check(probeUrl(host, port));
  const servername = net.isIP(host) ? undefined : host;
  return new Promise<Handshake>((resolve, reject) => {
    const socket = tls.connect({ host: address, port, servername, rejectUnauthorized: false });
    const fail = (reason: string) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(targetError(`the TLS handshake with ${host}:${port} failed (${reason})`, { host, port, reason }));
    };
    const onAbort = () => fail("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    socket.setTimeout(handshakeTimeoutMs, () => fail("timeout"));
    socket.once("error", (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    socket.once("secureConnect", () => {
      signal.removeEventListener("abort", onAbort);
      const peer = socket.getPeerCertificate(true);
      const cipher = socket.getCipher();
      const result = {
        host,
        port,
        address,
        authorized: socket.authorized,
        authorizationError: socket.authorizationError ? String(socket.authorizationError) : null,
        hostnameMatch: Boolean(peer.raw) && tls.checkServerIdentity(host, peer) === undefined,
        protocol: socket.getProtocol(),
        cipher: { name: cipher.name, standardName: cipher.standardName, version: cipher.version },
        chain: peer.raw ? chainOf(peer) : [],
      };
      socket.end();
      if (!result.chain.length) return void reject(targetError(`${host}:${port} sent no certificate`, { host, port }));
      resolve(result);
    });
  });
}

function chainOf(leaf: PeerCertificate & { issuerCertificate?: PeerCertificate }): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (
    let cert: typeof leaf | undefined = leaf;
    cert?.raw && !seen.has(cert.fingerprint256);
    cert = cert.issuerCertificate
  ) {
    seen.add(cert.fingerprint256);
    chain.push(new X509Certificate(cert.raw));
  }
  return chain;
}

export function daysUntil(date: string, now: Date): number {
  return Math.floor((new Date(date).getTime() - now.getTime()) / 86_400_000);
}

/** "CN=example.com\nO=Org" as Node prints it, turned into the usual one-line form. */
export function oneLineName(name: string): string {
  return name.split("\n").filter(Boolean).join(", ");
}

export function nameField(name: string, field: string): string | null {
  const line = name.split("\n").find((l) => l.startsWith(`${field}=`));
  return line ? line.slice(field.length + 1) : null;
}

/** Values of the subjectAltName extension ("DNS:a, IP Address:1.2.3.4" -> ["a", "1.2.3.4"]). */
export function altNames(cert: X509Certificate): string[] {
  const text = cert.subjectAltName ?? "";
  return [...text.matchAll(/(?:DNS|IP Address|URI|email):("(?:[^"\\]|\\.)*"|[^,]*)/g)].map((m) =>
    m[1].trim().replace(/^"(.*)"$/, "$1"),
  );
}

/** Valid = trusted chain, matching name and today inside the leaf's validity. */
export function leafValidity(hs: Handshake, today: Date): { valid: boolean; daysRemaining: number } {
  const leaf = hs.chain[0];
  const current = new Date(leaf.validFrom) <= today && today <= new Date(leaf.validTo);
  return { valid: hs.authorized && hs.hostnameMatch && current, daysRemaining: daysUntil(leaf.validTo, today) };
}
