// test: own-process: heavy: a sweep that runs beside the others
import { hostileSweeps } from "./_hostile-upstreams.ts";

// Bodies that claim more than any answer needs.
hostileSweeps(["huge-declared"]);
