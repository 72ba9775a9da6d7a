import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { serve, type H3 } from "h3";
import { toErrorBody, ServiceError } from "./errors.ts";

export interface ListenOptions {
  port: number;
  host: string;
  /** The handler deadline: a request must have arrived whole within it, headers and body. */
  handlerTimeoutMs: number;
}

/** How often Node looks for connections past their deadline (its default, 30 s, lets one live that much longer). */
const checkEveryMs = 1_000;
/** How long a refused connection's answer may take to leave before the socket is destroyed, read or not. */
const refusalGraceMs = 2_000;
/** How long a closing connection may go on sending what will be dropped (nginx's lingering_time is 30 s). */
const lingerMs = 30_000;

/**
 * Serves the app over HTTP/1.1. A request that arrives slower than the handler's deadline is cut with a 408,
 * and what Node or srvx refuse before the app sees a request (a malformed request line, headers over
 * 256 KiB, a timeout) is answered with the JSON error body too.
 */
export async function listen(app: H3, { port, host, handlerTimeoutMs }: ListenOptions) {
  const deadline = Math.max(handlerTimeoutMs, 1);
  const server = serve(app, {
    port,
    hostname: host,
    silent: true,
    manual: true,
    // GET inputs such as base64 images ride in the query string: allow headers well past Node's 16 KiB default.
    node: {
      maxHeaderSize: 256 * 1024,
      headersTimeout: deadline,
      requestTimeout: deadline,
      connectionsCheckingInterval: Math.min(checkEveryMs, deadline),
    } as object,
  });
  const node = server.node!.server as Server;
  const srvxHandler = server.node!.handler as (req: IncomingMessage, res: ServerResponse) => void;
  node.removeListener("request", srvxHandler);
  node.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // srvx answers an absolute-form target it cannot parse with a bare 400; this one says why.
    if (req.url && req.url[0] !== "/" && req.url !== "*" && !isHttpUrl(req.url))
      return answer(res, new ServiceError(400, "bad_request", "The request target is not a path or an http(s) URL"));
    srvxHandler(req, res);
  });
  node.on("clientError", answerClientError);
  node.on("connection", (socket: Socket) => {
    socket.destroySoon = () => lingeringClose(socket);
  });
  await server.serve();
  return server;
}

/**
 * How Node closes a connection after an answer with `connection: close`, made to end whatever the client does: the
 * answer and a FIN go out, what the client still sends is read and dropped (a close on unread bytes would reset
 * the connection and the client could lose the answer, as nginx's lingering_close avoids), and the socket is
 * destroyed when the client closes its side, after a short grace without a byte from it, or at `lingerMs`.
 */
function lingeringClose(socket: Socket): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  if (socket.writable) socket.end();
  socket.once("end", () => socket.destroy());
  socket.resume();
  // The HTTP parser reads the socket natively, so its idle timer does not see the bytes: count them.
  const started = Date.now();
  let read = socket.bytesRead;
  let lastRead = started;
  const check = setInterval(() => {
    const now = Date.now();
    if (socket.bytesRead > read) [read, lastRead] = [socket.bytesRead, now];
    if (now - lastRead >= refusalGraceMs || now - started >= lingerMs) socket.destroy();
  }, 250).unref();
  socket.once("close", () => clearInterval(check));
}

/** Sockets closing: the request deadline no longer applies to what they still send. */
const lingering = new WeakSet<Duplex>();

function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (lingering.has(socket)) return;
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const refusal =
    error.code === "HPE_HEADER_OVERFLOW"
      ? new ServiceError(431, "headers_too_large", "The request line and headers may be at most 256 KiB")
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new ServiceError(408, "request_timeout", "The request did not arrive in time")
        : new ServiceError(400, "bad_request", "The request is not valid HTTP/1.1");
  const body = JSON.stringify(toErrorBody(refusal));
  const reason = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }[refusal.status];
  // A half-closed socket lives until the client closes its side; one that never does must not hold it.
  setTimeout(() => socket.destroy(), refusalGraceMs).unref();
  socket.end(
    `HTTP/1.1 ${refusal.status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `access-control-allow-origin: *\r\nconnection: close\r\n\r\n${body}`,
  );
}

function answer(res: ServerResponse, error: ServiceError): void {
  const body = JSON.stringify(toErrorBody(error));
  res
    .writeHead(error.status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    })
    .end(body);
}

function isHttpUrl(target: string): boolean {
  if (!URL.canParse(target)) return false;
  const url = new URL(target);
  return (url.protocol === "http:" || url.protocol === "https:") && url.host !== "";
}
