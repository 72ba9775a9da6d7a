import { defineSettings } from "../../core/endpoint.ts";
import { dnsServers } from "../_shared/dns.ts";

/** The compliance family's settings: DNS_SERVERS, which `fraud-score` resolves e-mail domains with (as the web family does). */
export const complianceSettings = defineSettings((env) => ({ dnsServers: dnsServers(env) }));
