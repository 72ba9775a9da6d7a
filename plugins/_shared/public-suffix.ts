import { createRequire } from "node:module";
import { lazyWarmed } from "../../core/shared.ts";

/** tldts: the Public Suffix List, whose tables take about 20 ms of CPU to load, loaded after boot. */
export const publicSuffixList = lazyWarmed(() => createRequire(import.meta.url)("tldts") as typeof import("tldts"));
