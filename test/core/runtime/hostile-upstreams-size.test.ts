import { hostileSweeps } from "./_hostile-upstreams.ts";

// Bodies that claim more than any answer needs.
hostileSweeps(["huge-declared"]);
