import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { hostInput, portInput } from "../_shared/web-inputs.ts";
import { tlsHandshake } from "./_tls.ts";
import { certificateDetails, chainLinked } from "./_x509.ts";

const certificate = v.object({
  subject: v.string(),
  commonName: v.nullable(v.string()),
  issuer: v.string(),
  serialNumber: v.pipe(v.string(), v.description("Lower-case hex")),
  validFrom: v.string(),
  validTo: v.string(),
  daysRemaining: v.number(),
  sans: v.array(v.string()),
  isCA: v.boolean(),
  selfSigned: v.boolean(),
  fingerprintSha1: v.string(),
  fingerprintSha256: v.string(),
  keyType: v.pipe(v.string(), v.description("rsa, ec, ed25519, ...")),
  keyBits: v.nullable(v.number()),
  curve: v.nullable(v.string()),
  signatureAlgorithm: v.string(),
  ocspUrls: v.array(v.string()),
  caIssuerUrls: v.array(v.string()),
  crlUrls: v.array(v.string()),
  hasScts: v.pipe(v.boolean(), v.description("Embeds Certificate Transparency timestamps")),
});

export default defineEndpoint({
  name: "ssl-certificate",
  method: "GET",
  price: "$0.02",
  probes: true,
  summary: "The full TLS certificate chain of a host: names, validity, fingerprints, key, signature, OCSP and CRL URLs",
  description:
    "One TLS handshake (SNI = host) with the address the egress guard checked; every certificate the server sent is " +
    "decoded, leaf first. `linked` tells whether each certificate was issued by the next. A host that refuses or breaks " +
    "the handshake is a 502.",
  input: v.object({
    host: hostInput("Host name or IP address, without scheme or path, e.g. example.com"),
    port: portInput,
  }),
  output: v.object({
    host: v.string(),
    port: v.number(),
    address: v.string(),
    protocol: v.nullable(v.string()),
    cipher: v.object({ name: v.string(), standardName: v.string(), version: v.string() }),
    trusted: v.boolean(),
    trustError: v.nullable(v.string()),
    hostnameMatch: v.boolean(),
    linked: v.boolean(),
    chain: v.array(certificate),
  }),
  example: {
    input: { host: "example.com" },
    output: {
      host: "example.com",
      port: 443,
      address: "93.184.215.14",
      protocol: "TLSv1.3",
      cipher: { name: "TLS_AES_256_GCM_SHA384", standardName: "TLS_AES_256_GCM_SHA384", version: "TLSv1.3" },
      trusted: true,
      trustError: null,
      hostnameMatch: true,
      linked: true,
      chain: [
        {
          subject:
            "C=US, ST=California, L=Los Angeles, O=Internet Corporation for Assigned Names and Numbers, CN=*.example.com",
          commonName: "*.example.com",
          issuer: "C=US, O=DigiCert Inc, CN=DigiCert Global G3 TLS ECC SHA384 2020 CA1",
          serialNumber: "0ad893bafa68b0b7fb7a404f06ecaf9a",
          validFrom: "2026-01-15T00:00:00.000Z",
          validTo: "2027-02-03T23:59:59.000Z",
          daysRemaining: 74,
          sans: ["*.example.com", "example.com"],
          isCA: false,
          selfSigned: false,
          fingerprintSha1: "31:0D:B7:AF:4B:2B:C9:04:0C:83:44:70:1A:CA:08:D0:C6:93:81:E3",
          fingerprintSha256:
            "45:5E:0B:F3:E0:1B:87:F2:DF:58:9F:BC:2B:18:A3:E1:35:55:84:E6:B4:BB:44:42:E8:A8:3A:8D:1D:2F:63:D2",
          keyType: "ec",
          keyBits: 256,
          curve: "prime256v1",
          signatureAlgorithm: "ecdsa-with-SHA384",
          ocspUrls: ["http://ocsp.digicert.com"],
          caIssuerUrls: ["http://cacerts.digicert.com/DigiCertGlobalG3TLSECCSHA3842020CA1-2.crt"],
          crlUrls: [
            "http://crl3.digicert.com/DigiCertGlobalG3TLSECCSHA3842020CA1-2.crl",
            "http://crl4.digicert.com/DigiCertGlobalG3TLSECCSHA3842020CA1-2.crl",
          ],
          hasScts: true,
        },
      ],
    },
  },
  cacheTtl: 600,
  async handler({ input, egress, signal, now }) {
    const hs = await tlsHandshake(egress, input.host, input.port, signal);
    const today = now();
    return {
      host: hs.host,
      port: hs.port,
      address: hs.address,
      protocol: hs.protocol,
      cipher: hs.cipher,
      trusted: hs.authorized,
      trustError: hs.authorizationError,
      hostnameMatch: hs.hostnameMatch,
      linked: chainLinked(hs.chain),
      chain: hs.chain.map((cert) => certificateDetails(cert, today)),
    };
  },
});
