// test: own-process: heavy: a sweep that runs beside the others
import { hostileSweeps } from "./_hostile-upstreams.ts";

// Small bodies that inflate to more than any answer needs.
hostileSweeps(["inflating"]);
