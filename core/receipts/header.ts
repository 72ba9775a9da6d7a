/** The header every paid 2xx carries its receipt in (a JWS); v2's PAYMENT-RESPONSE carries it too, in its extensions. */
export const receiptHeader = "payment-receipt";
