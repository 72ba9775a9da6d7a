/** Just enough DER to read what node:crypto's X509Certificate leaves out: the signature algorithm and a few extensions. */
interface Tlv {
  tag: number;
  /** First content byte. */
  start: number;
  /** One past the last content byte. */
  end: number;
}

function readTlv(der: Buffer, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[start + i];
    start += count;
  }
  if (start + length > der.length) throw new Error("truncated DER");
  return { tag, start, end: start + length };
}

function childrenOf(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end; ) {
    const child = readTlv(der, offset);
    out.push(child);
    offset = child.end;
  }
  return out;
}

function oidOf(der: Buffer, tlv: Tlv): string {
  const bytes = der.subarray(tlv.start, tlv.end);
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}

const signatureNames: Record<string, string> = {
  "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
  "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
  "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
  "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
  "1.2.840.113549.1.1.10": "RSASSA-PSS",
  "1.2.840.10045.4.3.2": "ecdsa-with-SHA256",
  "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
  "1.2.840.10045.4.3.4": "ecdsa-with-SHA512",
  "1.3.101.112": "Ed25519",
  "1.3.101.113": "Ed448",
};

const crlDistributionPoints = "2.5.29.31";
const embeddedScts = "1.3.6.1.4.1.11129.2.4.2";

export interface DerFacts {
  signatureAlgorithm: string;
  crlUrls: string[];
  /** Signed certificate timestamps embedded for Certificate Transparency. */
  hasScts: boolean;
}

/** Reads a certificate's signature algorithm, CRL URLs and whether it embeds CT timestamps. */
export function derFacts(der: Buffer): DerFacts {
  const [tbs, algorithm] = childrenOf(der, readTlv(der, 0));
  const oid = oidOf(der, childrenOf(der, algorithm)[0]);
  const extensions = extensionsOf(der, tbs);
  const crl = extensions.get(crlDistributionPoints);
  return {
    signatureAlgorithm: signatureNames[oid] ?? oid,
    crlUrls: crl ? urisIn(der, crl) : [],
    hasScts: extensions.has(embeddedScts),
  };
}

/** Extension OID -> its extnValue OCTET STRING. */
function extensionsOf(der: Buffer, tbs: Tlv): Map<string, Tlv> {
  const found = new Map<string, Tlv>();
  const wrapper = childrenOf(der, tbs).find((t) => t.tag === 0xa3);
  if (!wrapper) return found;
  for (const extension of childrenOf(der, childrenOf(der, wrapper)[0])) {
    const parts = childrenOf(der, extension);
    found.set(oidOf(der, parts[0]), parts[parts.length - 1]);
  }
  return found;
}

/** Every uniformResourceIdentifier ([6] IA5String) inside a structure, in order. */
function urisIn(der: Buffer, tlv: Tlv): string[] {
  const uris: string[] = [];
  for (const child of childrenOf(der, tlv)) {
    if (child.tag === 0x86) uris.push(der.subarray(child.start, child.end).toString("latin1"));
    else if (child.tag & 0x20) uris.push(...urisIn(der, child));
  }
  return uris;
}
