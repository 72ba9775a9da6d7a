import { definePlugin } from "../../core/endpoint.ts";
import dns from "./dns.ts";
import emailCheck from "./email-check.ts";
import extract from "./extract.ts";
import rss from "./rss.ts";
import sslCertificate from "./ssl-certificate.ts";
import sslCheck from "./ssl-check.ts";
import tables from "./tables.ts";
import techStack from "./tech-stack.ts";
import whois from "./whois.ts";

export default definePlugin({
  family: "web",
  endpoints: [dns, emailCheck, extract, rss, sslCertificate, sslCheck, tables, techStack, whois],
});
