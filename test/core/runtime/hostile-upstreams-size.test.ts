import { hostileSweeps } from "./_hostile-upstreams.ts";

// Bodies that claim or inflate to more than any answer needs.
hostileSweeps(["huge-declared", "inflating"]);
