import type { H3 } from "h3";
import type { Runtime } from "../runtime/container.ts";
import { representation, serveRepresentation } from "../runtime/compression.ts";
import { didDocument } from "./key.ts";
import { serviceKeyOf } from "./setup.ts";

/** `/.well-known/did.json`: the `did:web` document binding the key that signs offers and receipts to this domain. */
export function mountDidDocument(app: H3, rt: Runtime) {
  const key = serviceKeyOf(rt.config);
  if (!key) return;
  const document = representation(JSON.stringify(didDocument(key)), {
    "content-type": "application/did+json",
    "access-control-allow-origin": "*",
    "cache-control": "public, max-age=300",
  });
  app.get("/.well-known/did.json", (event) => serveRepresentation(event.req, document));
}
