import { definePlugin } from "../../core/endpoint.ts";
import agentHealth from "./agent-health.ts";
import apiHealth from "./api-health.ts";
import apiTest from "./api-test.ts";
import contentAnalyze from "./content-analyze.ts";
import dns from "./dns.ts";
import emailCheck from "./email-check.ts";
import extract from "./extract.ts";
import farcasterFeed from "./farcaster-feed.ts";
import hn from "./hn.ts";
import httpCheck from "./http-check.ts";
import ipInfo from "./ip-info.ts";
import links from "./links.ts";
import metaTags from "./meta-tags.ts";
import monitor from "./monitor.ts";
import npmStats from "./npm-stats.ts";
import packageCheck from "./package-check.ts";
import pageSpeed from "./page-speed.ts";
import repoHealth from "./repo-health.ts";
import robots from "./robots.ts";
import rss from "./rss.ts";
import search from "./search.ts";
import securityHeaders from "./security-headers.ts";
import shorturl from "./shorturl.ts";
import sslCertificate from "./ssl-certificate.ts";
import sslCheck from "./ssl-check.ts";
import stackoverflow from "./stackoverflow.ts";
import tables from "./tables.ts";
import techStack from "./tech-stack.ts";
import urlInfo from "./url-info.ts";
import verifyFact from "./verify-fact.ts";
import verifyUrl from "./verify-url.ts";
import whois from "./whois.ts";
import ytInfo from "./yt-info.ts";
import { shortUrlRedirect } from "./_shorturl-redirect.ts";
import { webSettings } from "./_settings.ts";
import { webUpstreams } from "./_upstreams.ts";

export default definePlugin({
  family: "web",
  endpoints: [
    agentHealth,
    apiHealth,
    apiTest,
    contentAnalyze,
    dns,
    emailCheck,
    extract,
    farcasterFeed,
    hn,
    httpCheck,
    ipInfo,
    links,
    metaTags,
    monitor,
    npmStats,
    packageCheck,
    pageSpeed,
    repoHealth,
    robots,
    rss,
    search,
    securityHeaders,
    shorturl,
    sslCertificate,
    sslCheck,
    stackoverflow,
    tables,
    techStack,
    urlInfo,
    verifyFact,
    verifyUrl,
    whois,
    ytInfo,
  ],
  pages: [shortUrlRedirect],
  settings: webSettings,
  upstreams: webUpstreams,
});
