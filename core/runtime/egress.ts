import dns from "node:dns";
import net from "node:net";
import { Agent, request, type Dispatcher } from "undici";
import { addressRefusal } from "./egress-address.ts";
import { badRequest, ServiceError } from "./errors.ts";
import { discard, isDecodeError, readBody } from "./read-capped.ts";
import type { TargetResponse } from "../endpoint.ts";
import { lowerKeys } from "../shared.ts";

export { addressRefusal, isPublicAddress } from "./egress-address.ts";

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface EgressOptions {
  /** Tests only, never from configuration: lets exactly 127.0.0.1:<port> through as if it were public. */
  allowLoopbackPort?: number;
  /** Body size cap for the final answer. */
  maxBytes: number;
  /** Time cap for the whole exchange: resolving, every redirect and the body. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Resolver returning every address of a name; tests inject one. */
  lookup?: LookupAll;
}

export interface EgressInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
}

/** The answer of a guarded fetch: the shape handlers see as `ctx.egress.fetch()`. */
export type EgressResponse = TargetResponse;

export interface CheckedTarget {
  url: string;
  /** The address a connection to `url` must use. */
  address: string;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * The one way to fetch a user-supplied URL. Every hop is resolved and checked before it is contacted,
 * and the connection is pinned to the checked address, so a second DNS answer cannot move it.
 */
export function createEgress(options: EgressOptions) {
  const { allowLoopbackPort, maxBytes, timeoutMs, maxRedirects = 5, lookup = systemLookup } = options;

  async function check(raw: string, signal?: AbortSignal): Promise<CheckedTarget> {
    const url = parseTarget(raw);
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    const testPort = allowLoopbackPort !== undefined && port === allowLoopbackPort;
    if (port !== 80 && port !== 443 && !testPort)
      throw badRequest(`port ${port} is not allowed (only 80 and 443)`, { url: url.href });
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const addresses = net.isIP(host) ? [host] : await resolve(host, signal);
    for (const address of addresses) {
      if (testPort && address === "127.0.0.1") continue;
      const reason = addressRefusal(address);
      if (reason) throw badRequest(`target address ${address} is ${reason}`, { url: url.href, address });
      if (testPort) throw badRequest(`port ${port} is not allowed (only 80 and 443)`, { url: url.href });
    }
    return { url: url.href, address: addresses[0] };
  }

  async function resolve(host: string, signal?: AbortSignal): Promise<string[]> {
    let answers: { address: string }[];
    try {
      answers = await abortable(lookup(host), signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      const code = (error as { code?: string }).code;
      if (code === "ENOTFOUND" || code === "ENODATA") throw badRequest(`target host ${host} does not resolve`);
      throw new ServiceError(502, "target_error", `could not resolve ${host}`);
    }
    if (answers.length === 0) throw badRequest(`target host ${host} does not resolve`);
    return answers.map((answer) => answer.address);
  }

  async function follow(raw: string, init: EgressInit, signal: AbortSignal): Promise<EgressResponse> {
    let method = (init.method ?? "GET").toUpperCase();
    let body = init.body;
    const headers: Record<string, string> = { "user-agent": "x402-agent-services/1.0", ...lowerKeys(init.headers) };
    delete headers.host;
    const redirects: string[] = [];
    for (let current = raw; ; ) {
      const target = await check(current, signal);
      const answer = await send(target, { method, headers, body }, signal);
      if (answer.location === undefined) {
        const text = () => answer.body.toString("utf8");
        return {
          status: answer.status,
          headers: answer.headers,
          url: target.url,
          body: answer.body,
          text,
          redirects,
          address: target.address,
        };
      }
      const next = resolveLocation(answer.location, target.url);
      if (redirects.length >= maxRedirects)
        throw new ServiceError(502, "target_error", `more than ${maxRedirects} redirects`, {
          redirects: [...redirects, next],
        });
      if (answer.status === 303 || (method === "POST" && (answer.status === 301 || answer.status === 302))) {
        method = "GET";
        body = undefined;
        delete headers["content-type"];
      }
      if (new URL(next).origin !== new URL(target.url).origin)
        for (const name of ["authorization", "cookie"]) delete headers[name];
      redirects.push(next);
      current = next;
    }
  }

  async function send(
    target: CheckedTarget,
    req: { method: string; headers: Record<string, string>; body?: string | Buffer },
    signal: AbortSignal,
  ) {
    const agent = pinnedAgent(target.address);
    try {
      const res = await request(target.url, {
        ...req,
        method: req.method as Dispatcher.HttpMethod,
        dispatcher: agent,
        signal,
      });
      const headers = flatten(res.headers);
      if (redirectStatuses.has(res.statusCode) && headers.location) {
        discard(res.body);
        return { status: res.statusCode, headers, location: headers.location, body: Buffer.alloc(0) };
      }
      // A handler that asked for an encoding itself (page-speed measures the transfer) gets the bytes as sent;
      // a HEAD, 204 or 304 has no body to decode whatever its headers say.
      const bodiless = req.method === "HEAD" || res.statusCode === 204 || res.statusCode === 304;
      const encoding = req.headers["accept-encoding"] || bodiless ? undefined : headers["content-encoding"];
      const body = await readBody(res.body, { maxBytes, encoding, declaredLength: headers["content-length"] }).catch(
        (error) => {
          if (isDecodeError(error))
            throw new ServiceError(502, "target_error", `the target's ${encoding} body does not decode`, {
              url: target.url,
            });
          throw error;
        },
      );
      if (!body)
        throw new ServiceError(502, "target_error", `the target answered more than ${maxBytes} bytes`, {
          url: target.url,
        });
      return { status: res.statusCode, headers, location: undefined, body };
    } finally {
      agent.destroy().catch(() => {});
    }
  }

  return {
    check,
    async fetch(url: string, init: EgressInit = {}): Promise<EgressResponse> {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
      try {
        return await follow(url, init, signal);
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        if (init.signal?.aborted) throw init.signal.reason;
        if (timeout.aborted)
          throw new ServiceError(504, "target_timeout", `the target did not answer within ${timeoutMs} ms`, { url });
        throw new ServiceError(502, "target_error", "could not reach the target", {
          url,
          reason: (error as { code?: string }).code,
        });
      }
    },
  };
}

export type Egress = ReturnType<typeof createEgress>;

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`not a valid URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw badRequest(`scheme ${url.protocol} is not allowed (only http and https)`);
  if (url.username || url.password) throw badRequest("URLs with credentials are not allowed");
  return url;
}

function resolveLocation(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new ServiceError(502, "target_error", `the target redirected to an invalid URL: ${location}`);
  }
}

/** A dispatcher whose every lookup answers the address that was checked, whatever DNS would say now. */
export function pinnedAgent(address: string): Agent {
  const family = net.isIP(address);
  const lookup: net.LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Agent({ connect: { lookup } });
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      signal.throwIfAborted();
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    }),
  ]);
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return flat;
}
