import type { ListContext } from "./_sanctions-lists.ts";
import { loadLists } from "./_sanctions-lists.ts";
import { searchAddress } from "./_sanctions-match.ts";
import { factor, type Factor } from "./_score.ts";

/** The address among the digital-currency addresses on the sanctions lists (OFAC SDN publishes them). */
export async function listedAddressFactor(ctx: ListContext, address: string): Promise<Factor> {
  const lists = await loadLists(ctx);
  const hits = lists.flatMap(({ def, index }) =>
    index ? searchAddress(index, address).map((hit) => ({ list: def.id, ...hit })) : [],
  );
  const withAddresses = lists.filter((l) => l.index && l.index.addresses.size > 0);
  const source =
    withAddresses
      .map(
        ({ report }) =>
          `${report.name} published ${report.publishedAt ?? "on an unknown date"}${report.stale ? ", stale copy" : ""} (${report.sourceUrl})`,
      )
      .join("; ") || "no sanctions list with digital-currency addresses could be loaded";
  const value = hits.length
    ? hits
        .map((h) => `listed on ${h.list}: ${h.entry.names[0]} (id ${h.entry.id}; ${h.entry.programs.join(", ")})`)
        .join("; ")
    : `not among ${withAddresses.reduce((n, l) => n + (l.index?.addresses.size ?? 0), 0)} listed addresses`;
  return factor(
    "ofac-listed-address",
    100,
    hits.length > 0,
    value,
    source,
    "The address itself is on an official sanctions list: dealing with it is prohibited for persons under that jurisdiction.",
  );
}
