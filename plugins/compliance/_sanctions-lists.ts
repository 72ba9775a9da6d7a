import type { Logger, Store, Upstream } from "../../core/endpoint.ts";
import { unavailable } from "../../core/runtime/errors.ts";
import {
  parseEuFsf,
  parseOfacSdn,
  parseUkSanctions,
  parseUnConsolidated,
  type ListedEntry,
  type ParsedList,
} from "./_list-parsers.ts";
import { buildIndex, type ListIndex } from "./_sanctions-match.ts";

export interface ListDef {
  id: string;
  name: string;
  upstream: string;
  path: string;
  parse(body: string): ParsedList;
}

export const sanctionsLists: ListDef[] = [
  {
    id: "ofac-sdn",
    name: "US OFAC Specially Designated Nationals (SDN) list",
    upstream: "ofac-sdn",
    path: "/SDN.XML",
    parse: parseOfacSdn,
  },
  {
    id: "eu-fsf",
    name: "EU consolidated financial sanctions list",
    upstream: "eu-fsf",
    path: "/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw",
    parse: parseEuFsf,
  },
  {
    id: "un-sc",
    name: "UN Security Council consolidated list",
    upstream: "un-sc",
    path: "/consolidated.xml",
    parse: parseUnConsolidated,
  },
  {
    id: "uk-sanctions",
    name: "UK Sanctions List (FCDO)",
    upstream: "uk-sanctions",
    path: "/UK-Sanctions-List.xml",
    parse: parseUkSanctions,
  },
];

export const sanctionsUpstreams = sanctionsLists.map((l) => l.upstream);
export const refreshEveryMs = 6 * 3600_000;
/** A list not refreshed for this long is reported stale even if no attempt failed (the job is not running). */
const staleAfterMs = 4 * refreshEveryMs;
/** A list that has never loaded is tried again on a call at most this often. */
const retryMissingMs = 5 * 60_000;

/** What the store keeps about a list besides its entries. */
export interface ListStatus {
  fetchedAt: string | null;
  publishedAt: string | null;
  entries: number;
  checkedAt: string;
  error: string | null;
}

export interface ListReport extends ListStatus {
  id: string;
  name: string;
  sourceUrl: string;
  stale: boolean;
}

/** What a refresh needs: the job's context or an endpoint's. */
export interface ListContext {
  store: Store;
  log: Logger;
  upstream(name: string): Upstream;
  now(): Date;
}

const dataKey = (id: string) => `compliance:sanctions:${id}`;
const statusKey = (id: string) => `compliance:sanctions-status:${id}`;

/** Downloads and parses one list; on failure the previous index stays and the status records the error. */
export async function refreshList(ctx: ListContext, def: ListDef): Promise<ListStatus> {
  const previous = await ctx.store.get<ListStatus>(statusKey(def.id));
  const checkedAt = ctx.now().toISOString();
  let status: ListStatus;
  try {
    const parsed = def.parse(await ctx.upstream(def.upstream).text(def.path));
    if (!parsed.entries.length) throw new Error(`${def.id}: the file parsed to no entries`);
    await ctx.store.set(dataKey(def.id), {
      fetchedAt: checkedAt,
      publishedAt: parsed.publishedAt,
      entries: parsed.entries,
    });
    status = {
      fetchedAt: checkedAt,
      publishedAt: parsed.publishedAt,
      entries: parsed.entries.length,
      checkedAt,
      error: null,
    };
  } catch (error) {
    ctx.log.warn({ list: def.id, err: String(error) }, "sanctions list refresh failed; keeping the previous index");
    status = {
      fetchedAt: null,
      publishedAt: null,
      entries: 0,
      ...previous,
      checkedAt,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  await ctx.store.set(statusKey(def.id), status);
  return status;
}

/** The background job's tick: every list, one after the other (each file is tens of MB). */
export async function refreshAll(ctx: ListContext): Promise<void> {
  for (const def of sanctionsLists) await refreshList(ctx, def);
}

interface Stored {
  fetchedAt: string;
  entries: ListedEntry[];
}

/** Built indexes per store (one per service instance) and list, rebuilt when the store holds a newer refresh. */
const built = new WeakMap<Store, Map<string, { fetchedAt: string; index: ListIndex }>>();
const refreshing = new Map<string, Promise<ListStatus>>();

function refreshOnce(ctx: ListContext, def: ListDef): Promise<ListStatus> {
  let running = refreshing.get(def.id);
  if (!running) {
    running = refreshList(ctx, def).finally(() => refreshing.delete(def.id));
    refreshing.set(def.id, running);
  }
  return running;
}

/**
 * Every list's entries as of the last refresh, read from the store only when a newer refresh happened. A list
 * never loaded (the job has not run yet) is fetched here, on first use. No list at all is a 503, not charged.
 */
export async function loadLists(ctx: ListContext) {
  const lists = await Promise.all(
    sanctionsLists.map(async (def) => {
      let status = await ctx.store.get<ListStatus>(statusKey(def.id));
      const waited = status ? ctx.now().getTime() - Date.parse(status.checkedAt) : Infinity;
      if (!status?.fetchedAt && waited > retryMissingMs) status = await refreshOnce(ctx, def);
      const index = status?.fetchedAt ? await indexOf(ctx.store, def.id, status.fetchedAt) : null;
      const report: ListReport = {
        id: def.id,
        name: def.name,
        sourceUrl: ctx.upstream(def.upstream).url + def.path,
        fetchedAt: null,
        publishedAt: null,
        entries: 0,
        checkedAt: ctx.now().toISOString(),
        error: null,
        ...status,
        stale:
          !status?.fetchedAt ||
          status.error !== null ||
          ctx.now().getTime() - Date.parse(status.fetchedAt) > staleAfterMs,
      };
      return { def, report, index };
    }),
  );
  if (lists.every((l) => !l.index)) {
    throw unavailable("No sanctions list could be loaded yet; try again in a few minutes", 300, {
      lists: lists.map((l) => l.report),
    });
  }
  return lists;
}

async function indexOf(store: Store, id: string, fetchedAt: string): Promise<ListIndex | null> {
  const byList = built.get(store) ?? built.set(store, new Map()).get(store)!;
  const cached = byList.get(id);
  if (cached?.fetchedAt === fetchedAt) return cached.index;
  const stored = await store.get<Stored>(dataKey(id));
  if (!stored) return cached?.index ?? null;
  const index = buildIndex(stored.entries);
  byList.set(id, { fetchedAt: stored.fetchedAt, index });
  return index;
}
