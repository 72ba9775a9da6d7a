import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

type Cheerio = typeof import("cheerio");
type Linkedom = typeof import("linkedom");

let cheerioModule: Cheerio | undefined;
let linkedomModule: Linkedom | undefined;

/** cheerio's `load`, its module tree (parse5, htmlparser2 and more) required on the first page parsed rather than at boot. */
export const loadHtml: Cheerio["load"] = (...args) => (cheerioModule ??= require("cheerio") as Cheerio).load(...args);

/** linkedom's `parseHTML`, required on first use like `loadHtml`. */
export const parseHTML: Linkedom["parseHTML"] = (...args) => (linkedomModule ??= require("linkedom") as Linkedom).parseHTML(...args);
