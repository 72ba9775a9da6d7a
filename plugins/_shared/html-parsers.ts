import { createRequire } from "node:module";
import { lazy } from "../../core/shared.ts";

const require = createRequire(import.meta.url);

type Cheerio = typeof import("cheerio");
type Linkedom = typeof import("linkedom");

const cheerio = lazy(() => require("cheerio") as Cheerio);
const linkedom = lazy(() => require("linkedom") as Linkedom);

/** cheerio's `load`, its module tree (parse5, htmlparser2 and more) required on the first page parsed rather than at boot. */
export const loadHtml: Cheerio["load"] = (...args) => cheerio().load(...args);

/** linkedom's `parseHTML`, required on first use like `loadHtml`. */
export const parseHTML: Linkedom["parseHTML"] = (...args) => linkedom().parseHTML(...args);
