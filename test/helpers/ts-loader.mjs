// `node --import ./test/helpers/ts-loader.mjs`: runs the project's TypeScript with the hooks in ts-hooks.mjs.
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url, {
  data: { cache: process.env.TEST_TS_CACHE, root: new URL("../../", import.meta.url).pathname.replace(/\/$/, "") },
});
