import type { X509Certificate } from "node:crypto";
import { derFacts } from "./_der.ts";
import { altNames, daysUntil, nameField, oneLineName } from "./_tls.ts";

const curveBits: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521, secp256k1: 256 };
const fixedBits: Record<string, number> = { ed25519: 256, ed448: 456, x25519: 256, x448: 448 };

export interface CertificateDetails {
  subject: string;
  commonName: string | null;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validTo: string;
  daysRemaining: number;
  sans: string[];
  isCA: boolean;
  selfSigned: boolean;
  fingerprintSha1: string;
  fingerprintSha256: string;
  keyType: string;
  keyBits: number | null;
  curve: string | null;
  signatureAlgorithm: string;
  ocspUrls: string[];
  caIssuerUrls: string[];
  crlUrls: string[];
  hasScts: boolean;
}

export function certificateDetails(cert: X509Certificate, now: Date): CertificateDetails {
  const key = cert.publicKey;
  const keyType = key.asymmetricKeyType ?? "unknown";
  const details = key.asymmetricKeyDetails ?? {};
  const curve = details.namedCurve ?? null;
  const facts = derFacts(cert.raw);
  return {
    subject: oneLineName(cert.subject),
    commonName: nameField(cert.subject, "CN"),
    issuer: oneLineName(cert.issuer),
    serialNumber: cert.serialNumber.toLowerCase(),
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
    daysRemaining: daysUntil(cert.validTo, now),
    sans: altNames(cert),
    isCA: cert.ca,
    selfSigned: cert.checkIssued(cert) && cert.verify(key),
    fingerprintSha1: cert.fingerprint,
    fingerprintSha256: cert.fingerprint256,
    keyType,
    keyBits: details.modulusLength ?? (curve ? (curveBits[curve] ?? null) : (fixedBits[keyType] ?? null)),
    curve,
    signatureAlgorithm: facts.signatureAlgorithm,
    ocspUrls: accessUrls(cert.infoAccess, "OCSP"),
    caIssuerUrls: accessUrls(cert.infoAccess, "CA Issuers"),
    crlUrls: facts.crlUrls,
    hasScts: facts.hasScts,
  };
}

/** URLs of one kind from Node's "OCSP - URI:http://...\nCA Issuers - URI:http://..." text. */
function accessUrls(infoAccess: string | undefined, kind: string): string[] {
  return (infoAccess ?? "")
    .split("\n")
    .filter((line) => line.startsWith(`${kind} - URI:`))
    .map((line) => line.slice(`${kind} - URI:`.length).replace(/^"(.*)"$/, "$1"));
}

/** Each certificate was issued by the next one, as a server should send its chain. */
export function chainLinked(chain: X509Certificate[]): boolean {
  return chain.every((cert, i) => i === chain.length - 1 || cert.checkIssued(chain[i + 1]));
}
