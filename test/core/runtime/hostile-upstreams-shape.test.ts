// test: own-process: heavy: a sweep that runs beside the others
import { hostileSweeps } from "./_hostile-upstreams.ts";

// Bodies of the wrong shape, cut short or not text at all.
hostileSweeps(["wrong-shape", "truncated", "binary"]);
