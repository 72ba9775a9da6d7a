import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { hostInput, portInput } from "../_shared/web-inputs.ts";
import { altNames, leafValidity, oneLineName, tlsHandshake } from "./_tls.ts";

export default defineEndpoint({
  name: "ssl-check",
  method: "GET",
  price: "$0.005",
  mcp: true,
  probes: true,
  summary: "Check a host's TLS certificate: valid, days remaining, issuer, names, protocol and cipher",
  description:
    "One TLS handshake with the host (SNI = host) after the egress guard has checked its address. `valid` means the " +
    "chain verifies against the system's trusted roots, the host matches the certificate's names and today is inside " +
    "its validity. A host that refuses or breaks the handshake is a 502. For the whole chain with fingerprints and key " +
    "details, see /v1/ssl-certificate.",
  input: v.object({
    host: hostInput("Host name or IP address, without scheme or path, e.g. example.com"),
    port: portInput,
  }),
  output: v.object({
    host: v.string(),
    port: v.number(),
    address: v.pipe(v.string(), v.description("The address that was connected to")),
    valid: v.boolean(),
    trusted: v.pipe(v.boolean(), v.description("The chain verifies against the system's trusted roots")),
    trustError: v.nullable(
      v.pipe(v.string(), v.description("OpenSSL's reason when not trusted, e.g. CERT_HAS_EXPIRED")),
    ),
    hostnameMatch: v.boolean(),
    daysRemaining: v.pipe(v.number(), v.description("Whole days until the certificate expires; negative once expired")),
    validFrom: v.string(),
    validTo: v.string(),
    issuer: v.string(),
    subject: v.string(),
    sans: v.pipe(v.array(v.string()), v.description("DNS names and IP addresses the certificate covers")),
    protocol: v.nullable(v.string()),
    cipher: v.string(),
  }),
  example: {
    input: { host: "example.com", port: 443 },
    output: {
      host: "example.com",
      port: 443,
      address: "93.184.215.14",
      valid: true,
      trusted: true,
      trustError: null,
      hostnameMatch: true,
      daysRemaining: 74,
      validFrom: "2026-01-15T00:00:00.000Z",
      validTo: "2027-02-03T23:59:59.000Z",
      issuer: "C=US, O=DigiCert Inc, CN=DigiCert Global G3 TLS ECC SHA384 2020 CA1",
      subject:
        "C=US, ST=California, L=Los Angeles, O=Internet Corporation for Assigned Names and Numbers, CN=*.example.com",
      sans: ["*.example.com", "example.com"],
      protocol: "TLSv1.3",
      cipher: "TLS_AES_256_GCM_SHA384",
    },
  },
  cacheTtl: 600,
  async handler({ input, egress, signal, now }) {
    const hs = await tlsHandshake(egress, input.host, input.port, signal);
    const leaf = hs.chain[0];
    const { valid, daysRemaining } = leafValidity(hs, now());
    return {
      host: hs.host,
      port: hs.port,
      address: hs.address,
      valid,
      trusted: hs.authorized,
      trustError: hs.authorizationError,
      hostnameMatch: hs.hostnameMatch,
      daysRemaining,
      validFrom: new Date(leaf.validFrom).toISOString(),
      validTo: new Date(leaf.validTo).toISOString(),
      issuer: oneLineName(leaf.issuer),
      subject: oneLineName(leaf.subject),
      sans: altNames(leaf),
      protocol: hs.protocol,
      cipher: hs.cipher.standardName,
    };
  },
});
