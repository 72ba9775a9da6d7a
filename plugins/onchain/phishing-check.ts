import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { checkDomain, phishingList } from "./_phishing-list.ts";

const LIST_URL = "https://github.com/MetaMask/eth-phishing-detect/blob/main/src/config.json";

export default defineEndpoint({
  name: "phishing-check",
  method: "GET",
  price: "$0.005",
  summary:
    "Is this site a known crypto phishing domain or a look-alike of a real dApp? Checked against MetaMask's phishing list",
  description:
    "Checks the host (and its parent domains) against MetaMask's eth-phishing-detect list, the one MetaMask's wallet blocks with, refreshed hourly: `blacklist` is a listed phishing domain, `fuzzy` a look-alike of a well-known dApp (within the list's edit-distance tolerance, so false positives happen: see `similarTo`), `whitelist` a domain MetaMask vouches for. Not listed is `flagged: false`, which is not a guarantee.",
  input: v.object({
    url: v.pipe(
      v.string(),
      v.minLength(3),
      v.maxLength(500),
      v.regex(/^(https?:\/\/)?[a-zA-Z0-9.-]+\.[a-zA-Z0-9-]{2,}(:\d+)?(\/\S*)?$/, "must be a URL or a domain name"),
      v.description("Site URL or domain to check"),
    ),
  }),
  output: v.object({
    domain: v.pipe(v.string(), v.description("The host checked, lower case, IDNs in punycode")),
    flagged: v.boolean(),
    verdict: v.picklist(["phishing", "look-alike", "allowed", "not-listed"]),
    matchType: v.pipe(v.nullable(v.picklist(["blacklist", "fuzzy", "whitelist"])), v.description("Which list matched")),
    match: v.pipe(v.nullable(v.string()), v.description("The listed domain that matched")),
    similarTo: v.pipe(v.nullable(v.string()), v.description("For a look-alike: the real domain it imitates")),
    editDistance: v.nullable(v.number()),
    listUpdatedAt: v.pipe(v.string(), v.description("When this service last fetched the list (ISO 8601)")),
    source: v.string(),
  }),
  example: {
    input: { url: "https://uniswap-airdrop.app/claim" },
    output: {
      domain: "uniswap-airdrop.app",
      flagged: true,
      verdict: "phishing",
      matchType: "blacklist",
      match: "uniswap-airdrop.app",
      similarTo: null,
      editDistance: null,
      listUpdatedAt: "2025-06-01T12:00:00.000Z",
      source: LIST_URL,
    },
  },
  cacheTtl: 600,
  upstreams: ["metamask-phishing"],
  async handler({ input, upstream, now }) {
    const domain = new URL(/^https?:\/\//i.test(input.url) ? input.url : `https://${input.url}`).hostname;
    const list = await phishingList(upstream("metamask-phishing"), now());
    const verdict = checkDomain(list, domain);
    const flagged = verdict.matchType === "blacklist" || verdict.matchType === "fuzzy";
    return {
      domain,
      flagged,
      verdict:
        verdict.matchType === "blacklist"
          ? "phishing"
          : verdict.matchType === "fuzzy"
            ? "look-alike"
            : verdict.matchType === "whitelist"
              ? "allowed"
              : "not-listed",
      matchType: verdict.matchType,
      match: verdict.match,
      similarTo: verdict.similarTo,
      editDistance: verdict.distance,
      listUpdatedAt: list.fetchedAt.toISOString(),
      source: LIST_URL,
    } as const;
  },
});
