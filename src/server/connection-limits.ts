// How long the HTTP server waits for a request, and how many connections it holds.
// Node's defaults kept a connection that never finished its headers 60 s (85 s with
// its 30 s check), one that never finished its body 300 s, and any number of them.
// Lifeline's clients are scripts and agents on a LAN, whose requests arrive in
// milliseconds: the defaults below leave a slow or paused client ample room and a
// client that holds sockets open on purpose little.
//
// The timeouts run until the request is received (Node's semantics): a response
// that streams for hours (SSE) and a WebSocket (detached from HTTP at its upgrade)
// are not cut by them.
import type { Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import { refusalBody } from "./http-status.js";

export interface HttpLimits {
  /** Milliseconds for a request's headers to arrive (Node's headersTimeout); 408 and closed past it. */
  headersTimeoutMs: number;
  /** Milliseconds for a whole request, body included, to arrive (Node's requestTimeout); 408 and closed past it. */
  requestTimeoutMs: number;
  /** Milliseconds an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs: number;
  /** Connections held at once (HTTP and WebSocket); past it each new one is answered 503 TOO_MANY_CONNECTIONS. */
  maxConnections: number;
}

export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1000,
};

/** node:http's options for these limits. */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  const requestTimeout = limits.requestTimeoutMs;
  return {
    // Node refuses a headers timeout past the request's: the headers are part of the request.
    headersTimeout: requestTimeout > 0 ? Math.min(limits.headersTimeoutMs, requestTimeout) : limits.headersTimeoutMs,
    requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node looks for expired requests this often (30 s by default, which a timeout of seconds would not survive).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** The answer a connection past the cap gets, as JSON, whether it sent a request or a WebSocket handshake. */
export function tooManyConnections(max: number): { status: number; headers: Record<string, string>; body: string } {
  const body = refusalBody(
    "TOO_MANY_CONNECTIONS",
    `the server holds ${max} connections, as many as it accepts: retry shortly, or share one (keep-alive, one WebSocket a process)`,
    { limit: "connections", max, retryable: true },
  );
  return {
    status: 503,
    // Capitalised as ws writes its own (a handshake's refusal), so that these replace them rather than repeat them.
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      "Retry-After": "1",
      Connection: "close",
    },
    body,
  };
}

/**
 * Counts the server's connections. One that opens while `max` are held is marked: its first request or handshake is
 * answered 503 and it is closed (a connection that sends nothing is closed by the headers timeout). Node's own
 * maxConnections would close it without a word.
 */
export class ConnectionCap {
  private open = 0;
  private readonly over = new WeakSet<Socket>();

  constructor(
    server: Server,
    readonly max: number,
  ) {
    server.on("connection", (socket: Socket) => {
      if (this.open >= max) this.over.add(socket);
      this.open++;
      socket.once("close", () => this.open--);
    });
  }

  /** Whether the socket opened past the cap. */
  refuses(socket: Socket): boolean {
    return this.over.has(socket);
  }
}
