import type { PaymentRequirements } from "@x402/core/types";
import {
  OFFER_RECEIPT,
  createJWSOfferReceiptIssuer,
  createOfferReceiptExtension,
  declareOfferReceiptExtension,
  type OfferInput,
  type OfferReceiptIssuer,
  type SignedOffer,
  extractOfferPayload,
} from "@x402/extensions/offer-receipt";
import type { Outcome } from "../runtime/call.ts";
import type { MaybePromise } from "../runtime/maybe.ts";
import { decodeHeader } from "../shared.ts";
import type { ServiceKey } from "./key.ts";

const declaration = declareOfferReceiptExtension()[OFFER_RECEIPT];
/** Terms signed by many routes at many prices (the batch's) are forgotten past this many, oldest first. */
const maxSignedTerms = 10_000;

interface Signed {
  offer: SignedOffer;
  /** Signed again from here on (half its life), while the old one is still served. */
  renewAt: number;
  expiresAt: number;
  renewing?: Promise<SignedOffer>;
}

/**
 * Signed offers for the 402s: one per entry of `accepts`, made by the extension's own JWS issuer and its
 * `enrichPaymentRequiredResponse`, signed once per route and terms (the offer lives the route's
 * `maxTimeoutSeconds` and is signed again at half of it), never per request.
 */
export function createOffers(key: ServiceKey, now: () => number = Date.now) {
  const jws = createJWSOfferReceiptIssuer(key.kid, key.signer);
  const signed = new Map<string, Signed>();
  const sign = (id: string, resourceUrl: string, input: OfferInput) => {
    const validityMs = (input.offerValiditySeconds ?? 300) * 1000;
    const at = now();
    return jws.issueOffer(resourceUrl, input).then((offer) => {
      if (signed.size >= maxSignedTerms) signed.delete(signed.keys().next().value!);
      signed.set(id, { offer, renewAt: at + validityMs / 2, expiresAt: at + validityMs - 5_000 });
      return offer;
    });
  };
  /** The extension's issuer, answering from what was signed for the same terms. */
  const issuer: OfferReceiptIssuer = {
    ...jws,
    async issueOffer(resourceUrl, input) {
      const { acceptIndex, ...terms } = input;
      const id = `${resourceUrl} ${JSON.stringify(terms)}`;
      const known = signed.get(id);
      const t = now();
      let offer: SignedOffer;
      if (known && t < known.renewAt) offer = known.offer;
      else if (known && t < known.expiresAt) {
        known.renewing ??= sign(id, resourceUrl, input).finally(() => (known.renewing = undefined));
        offer = known.offer;
      } else offer = await sign(id, resourceUrl, input);
      return { ...offer, acceptIndex };
    },
  };
  const extension = createOfferReceiptExtension(issuer);

  /** The `offer-receipt` extension of a 402 whose v2 PaymentRequired is `required`. */
  const offersFor = (required: { resource?: { url: string }; accepts: PaymentRequirements[] }) =>
    extension.enrichPaymentRequiredResponse!(declaration, {
      paymentRequiredResponse: required,
      requirements: required.accepts,
    } as never);

  /** Each frozen 402 (a route's unpaid challenge) with its offers, until they are due to be signed again. */
  const withOffersCache = new WeakMap<Outcome, { outcome: Outcome; renewAt: number; renewing?: Promise<Outcome> }>();

  /** The 402 with its offers, and when the first of them expires (ms). */
  async function withOffers(outcome: Outcome): Promise<{ outcome: Outcome; validUntil: number }> {
    const header = outcome.headers["payment-required"];
    if (!header) return { outcome, validUntil: Number.POSITIVE_INFINITY };
    const required = decodeHeader<{ extensions?: object; resource?: { url: string }; accepts: PaymentRequirements[] }>(
      header,
    );
    const enriched = (await offersFor(required)) as { info: { offers: SignedOffer[] } } | undefined;
    if (!enriched) return { outcome, validUntil: now() };
    const extensions = { ...required.extensions, [OFFER_RECEIPT]: enriched };
    const encoded = Buffer.from(JSON.stringify({ ...required, extensions })).toString("base64");
    const validUntil = Math.min(...enriched.info.offers.map((o) => extractOfferPayload(o).validUntil * 1000));
    return { outcome: { ...outcome, headers: { ...outcome.headers, "payment-required": encoded } }, validUntil };
  }

  return {
    /**
     * A 402 with a signed offer per entry of its `accepts`. A route's unpaid challenge (frozen, answered again and
     * again) is rebuilt only when its offers are signed again, and answered at once meanwhile.
     */
    challenge(outcome: Outcome): MaybePromise<Outcome> {
      if (!Object.isFrozen(outcome)) return withOffers(outcome).then((w) => w.outcome);
      const known = withOffersCache.get(outcome);
      if (known && now() < known.renewAt) return known.outcome;
      if (known) {
        known.renewing ??= rebuild(outcome).finally(() => (known.renewing = undefined));
        return known.outcome;
      }
      return rebuild(outcome);
    },
  };

  /** Rebuilt with at least half of its offers' life ahead (the issuer signs again past half of it). */
  async function rebuild(outcome: Outcome): Promise<Outcome> {
    const built = await withOffers(outcome);
    const frozen = Object.freeze(built.outcome);
    const left = built.validUntil - now();
    withOffersCache.set(outcome, { outcome: frozen, renewAt: now() + Math.max(0, left / 2) });
    return frozen;
  }
}
