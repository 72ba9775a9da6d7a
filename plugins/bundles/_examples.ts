import recorded from "./_examples.json" with { type: "json" };

/**
 * Real answers of each bundle, recorded on the test fixtures (test/plugins/bundles): each part's data is
 * trimmed to the first item of its lists. The web bundles ran against a local test site, shown here as
 * http://status.example.com; onchain-portfolio against the anvil devnet of the onchain tests (its ethereum node down);
 * domain-intel on a deployment without the web family (those parts 503 in place). The loader checks each against
 * its bundle's schemas.
 */
export const examples: Record<string, { input: Record<string, unknown>; output: unknown }> = recorded;
