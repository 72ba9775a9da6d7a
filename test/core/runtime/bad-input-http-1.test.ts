// test: own-process: heavy: a sweep that runs beside the others
import { badInputOverHttp } from "./_bad-input-http.ts";

// Half of the endpoints each: the two halves run side by side.
badInputOverHttp(0, 2);
