import { chromium, type Browser, type Page } from "playwright-core";

/** CI's shared 2-core box can take tens of seconds to render a page; a page that never renders still fails. */
const patience = 90_000;

/** Headless Chromium as the page tests drive it: no sandbox, no GPU, nothing that reaches the internet. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });

/** A page whose waits (selectors, navigation, clicks) last as long as a busy machine needs. */
export async function openPage(browser: Browser, options?: Parameters<Browser["newPage"]>[0]): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(patience);
  page.setDefaultNavigationTimeout(patience);
  return page;
}
