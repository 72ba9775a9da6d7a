import { definePlugin } from "../../core/endpoint.ts";
import { homePage } from "./_home.ts";
import { siteDevnet, siteSettings } from "./_settings.ts";
import { reviewsPage } from "./_reviews-page.ts";

const asset = (path: string, file: string) => ({ path, type: "text/javascript", file: new URL(file, import.meta.url) });

export default definePlugin({
  family: "site",
  pages: [homePage, reviewsPage],
  assets: [
    asset("/site/home.js", "./_home.js"),
    asset("/site/request.js", "./_request.js"),
    asset("/site/reviews.js", "./_reviews-page.js"),
  ],
  settings: siteSettings,
  devnet: siteDevnet,
});
