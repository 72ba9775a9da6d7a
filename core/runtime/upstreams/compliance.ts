import type { UpstreamTable } from "../upstreams.ts";

export const compliance = {} satisfies UpstreamTable;
