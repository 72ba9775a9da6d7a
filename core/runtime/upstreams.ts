import { payments } from "./upstreams/payments.ts";
import { market } from "./upstreams/market.ts";
import { onchain } from "./upstreams/onchain.ts";
import { compliance } from "./upstreams/compliance.ts";
import { web } from "./upstreams/web.ts";
import { publicdata } from "./upstreams/publicdata.ts";
import { reference } from "./upstreams/reference.ts";
import { arcade } from "./upstreams/arcade.ts";
import { bet } from "./upstreams/bet.ts";
import { swap } from "./upstreams/swap.ts";

/**
 * Every third-party API the service calls, in one place: the README's "data sources" section is generated
 * from this table. A base URL here is the public default; configuration overrides it (tests point it at
 * loopback). One file per family under upstreams/, merged here. Sources: research/upstreams-b.md, "Upstream registry (deduplicated)".
 */
export interface UpstreamKey {
  /** Environment variable that holds the key (`UPSTREAM_<NAME>_KEY`, read by config.ts). */
  env: string;
  /** Sent as this request header... */
  header?: string;
  /** ...or as this query parameter. */
  query?: string;
  /** The upstream works without the key (lower limits); an endpoint using it stays mounted. */
  optional?: boolean;
}

export interface UpstreamEntry {
  /** Public base URL; a request's path is appended to it. */
  url: string;
  /** One line: licence, attribution and limits a user of the data should know. */
  terms: string;
  key?: UpstreamKey;
  /** Sent with every request to this upstream. */
  headers?: Record<string, string>;
  /** Response size cap in bytes when the default is too small for this upstream. */
  maxBytes?: number;
  /** Request timeout when the default is too short (bulk list downloads). */
  timeoutMs?: number;
  /** Redirects to follow (a download that answers 302 to signed storage); none by default. */
  maxRedirections?: number;
}

export type UpstreamTable = Record<string, UpstreamEntry>;

export const upstreamFamilies = { payments, market, onchain, compliance, web, publicdata, reference, arcade, bet, swap };

export const upstreams = { ...payments, ...market, ...onchain, ...compliance, ...web, ...publicdata, ...reference, ...arcade, ...bet, ...swap } satisfies UpstreamTable;

export type UpstreamName = keyof typeof upstreams;
