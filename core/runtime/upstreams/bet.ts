import type { UpstreamTable } from "../upstreams.ts";

export const bet = {} satisfies UpstreamTable;
