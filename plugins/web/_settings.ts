import { defineSettings } from "../../core/endpoint.ts";
import { dnsServers } from "../_shared/dns.ts";

/** The web family's settings: DNS_SERVERS, the resolvers of `dns`, `email-check` and `ip-info`. */
export const webSettings = defineSettings((env) => ({ dnsServers: dnsServers(env) }));
