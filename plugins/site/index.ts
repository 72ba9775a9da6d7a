import { definePlugin } from "../../core/endpoint.ts";
import { homePage } from "./_home.ts";
import { siteDevnet, siteSettings } from "./_settings.ts";
import { reviewsPage } from "./_reviews-page.ts";
import devnetPay from "./devnet-pay.ts";
import reviewApprove from "./review-approve.ts";
import reviewReject from "./review-reject.ts";
import reviewSubmit from "./review-submit.ts";
import reviews from "./reviews.ts";
import reviewsPending from "./reviews-pending.ts";

const asset = (path: string, file: string) => ({ path, type: "text/javascript", file: new URL(file, import.meta.url) });

export default definePlugin({
  family: "site",
  endpoints: [devnetPay, reviewApprove, reviewReject, reviewSubmit, reviews, reviewsPending],
  pages: [homePage, reviewsPage],
  assets: [
    asset("/site/home.js", "./_home.js"),
    asset("/site/request.js", "./_request.js"),
    asset("/site/reviews.js", "./_reviews-page.js"),
  ],
  settings: siteSettings,
  devnet: siteDevnet,
});
