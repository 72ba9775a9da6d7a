import * as v from "valibot";
import { defineEndpoint } from "../../core/endpoint.ts";
import { cryptoAddressField, requireOneOf } from "./_inputs.ts";
import { loadLists, sanctionsUpstreams } from "./_sanctions-lists.ts";
import { searchAddress, searchName, type Hit } from "./_sanctions-match.ts";

const maxMatches = 25;

const listExample = (id: string, name: string, sourceUrl: string, publishedAt: string, entries: number) => ({
  id,
  name,
  sourceUrl,
  publishedAt,
  entries,
  fetchedAt: "2026-11-21T06:00:00.000Z",
  checkedAt: "2026-11-21T06:00:00.000Z",
  stale: false,
  error: null,
});

const ListReport = v.object({
  id: v.pipe(v.string(), v.description("ofac-sdn, eu-fsf, un-sc or uk-sanctions")),
  name: v.string(),
  sourceUrl: v.pipe(v.string(), v.description("The published file the index is built from")),
  publishedAt: v.pipe(v.nullable(v.string()), v.description("The date or time the publisher stamped on the file")),
  fetchedAt: v.pipe(
    v.nullable(v.string()),
    v.description("When this service last downloaded it (ISO 8601); null if never"),
  ),
  checkedAt: v.pipe(v.string(), v.description("The last download attempt")),
  entries: v.number(),
  stale: v.pipe(
    v.boolean(),
    v.description("The last download failed or is older than a day: matches come from the previous copy"),
  ),
  error: v.pipe(v.nullable(v.string()), v.description("Why the last download failed")),
});

const Match = v.object({
  list: v.string(),
  id: v.pipe(
    v.string(),
    v.description("The entry's id in its list (OFAC uid, EU reference, UN reference number, UK unique id)"),
  ),
  kind: v.picklist(["person", "entity", "vessel", "aircraft", "other"]),
  name: v.pipe(v.string(), v.description("The entry's primary name")),
  matchedField: v.picklist(["name", "alias", "address"]),
  matchedValue: v.string(),
  score: v.pipe(
    v.number(),
    v.description("1 for an exact normalized name or an address; Jaro-Winkler word similarity otherwise"),
  ),
  names: v.pipe(v.array(v.string()), v.description("Primary name and aliases (first 10)")),
  programs: v.array(v.string()),
  addresses: v.pipe(
    v.array(v.object({ currency: v.string(), address: v.string() })),
    v.description("Listed digital-currency addresses"),
  ),
  countries: v.array(v.string()),
  listedOn: v.nullable(v.string()),
  url: v.nullable(v.string()),
});

export default defineEndpoint({
  name: "sanctions",
  method: "GET",
  price: "$0.05",
  summary: "Screen a name or a crypto address against the OFAC SDN, EU, UN and UK sanctions lists",
  description:
    "Matched locally against the official published files (OFAC SDN.XML with its digital-currency addresses, the EU consolidated list, the UN Security Council consolidated list, the UK Sanctions List), downloaded every 6 hours. Names match fuzzily (Jaro-Winkler over words, order-free, accents and punctuation ignored) at `minScore` or above; `strict=true` keeps exact normalized names only. Addresses match exactly. Each list's date is in `lists`; a list whose last download failed is marked stale and the previous copy is used. Matches are evidence to review, not a compliance determination; no match is not a clearance.",
  input: v.object({
    name: v.optional(
      v.pipe(v.string(), v.minLength(2), v.maxLength(200), v.description("Person, company, vessel or group name")),
    ),
    address: v.optional(cryptoAddressField("Digital-currency address to look for among OFAC's listed addresses")),
    strict: v.optional(v.pipe(v.boolean(), v.description("Exact normalized name matches only")), false),
    minScore: v.optional(
      v.pipe(v.number(), v.minValue(0.7), v.maxValue(1), v.description("Lowest fuzzy score reported (0.7-1)")),
      0.9,
    ),
  }),
  output: v.object({
    hits: v.pipe(v.number(), v.description("Entries matched (before the cap of 25 listed)")),
    matches: v.array(Match),
    lists: v.array(ListReport),
  }),
  example: {
    input: { address: "0x7F367cC41522cE07553e823bf3be79A889DEbe1B" },
    output: {
      hits: 1,
      matches: [
        {
          list: "ofac-sdn",
          id: "25308",
          kind: "person",
          name: "Xiaobing YAN",
          matchedField: "address",
          matchedValue: "0x7F367cC41522cE07553e823bf3be79A889DEbe1B",
          score: 1,
          names: ["Xiaobing YAN", "Steven YAN"],
          programs: ["SDNTK"],
          addresses: [
            { currency: "XBT", address: "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h" },
            { currency: "ETH", address: "0x7F367cC41522cE07553e823bf3be79A889DEbe1B" },
          ],
          countries: ["China"],
          listedOn: null,
          url: "https://sanctionssearch.ofac.treas.gov/Details.aspx?id=25308",
        },
      ],
      lists: [
        listExample(
          "ofac-sdn",
          "US OFAC Specially Designated Nationals (SDN) list",
          "https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.XML",
          "2026-11-20",
          18342,
        ),
        listExample(
          "eu-fsf",
          "EU consolidated financial sanctions list",
          "https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw",
          "2026-11-20T18:01:12.356+01:00",
          5843,
        ),
        listExample(
          "un-sc",
          "UN Security Council consolidated list",
          "https://scsanctions.un.org/resources/xml/en/consolidated.xml",
          "2026-11-20T09:00:05.113Z",
          1004,
        ),
        listExample(
          "uk-sanctions",
          "UK Sanctions List (FCDO)",
          "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.xml",
          "2026-11-20T10:12:45",
          5641,
        ),
      ],
    },
  },
  upstreams: sanctionsUpstreams,
  timeoutMs: 180_000,
  async handler(ctx) {
    const { input } = ctx;
    requireOneOf(input, ["name", "address"]);
    const lists = await loadLists(ctx);
    const hits: (Hit & { list: string })[] = [];
    for (const { def, index } of lists) {
      if (!index) continue;
      const found = [
        ...(input.address ? searchAddress(index, input.address) : []),
        ...(input.name ? searchName(index, input.name, input.strict, input.strict ? 1 : input.minScore) : []),
      ];
      hits.push(...found.map((hit) => ({ ...hit, list: def.id })));
    }
    hits.sort((a, b) => b.score - a.score || a.list.localeCompare(b.list));
    return {
      hits: hits.length,
      matches: hits.slice(0, maxMatches).map(({ list, entry, matchedField, matchedValue, score }) => ({
        list,
        id: entry.id,
        kind: entry.kind,
        name: entry.names[0] ?? "",
        matchedField,
        matchedValue,
        score,
        names: entry.names.slice(0, 10),
        programs: entry.programs,
        addresses: entry.addresses,
        countries: entry.countries,
        listedOn: entry.listedOn,
        url: entry.url,
      })),
      lists: lists.map((l) => l.report),
    };
  },
});
