// What Node's HTTP server answers on its own, before any request handler runs (a header section too large, a
// request that is not HTTP, one that took too long to arrive), answered as every other refusal is: a status and a
// JSON body with a code. Node's defaults send the status alone.

import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { refusalBody } from "./http-status.js";

/** The status and body for a client error Node's parser or timers raised (their codes: Node's own `socketOnError`). */
function refusalOf(error: NodeJS.ErrnoException): { status: number; body: string } {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        body: refusalBody("REQUEST_TOO_LARGE", "the request's header section is larger than the server accepts", { limit: "headers" }),
      };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return {
        status: 413,
        body: refusalBody("REQUEST_TOO_LARGE", "the request's chunk extensions are larger than the server accepts", {
          limit: "chunkExtensions",
        }),
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, body: refusalBody("REQUEST_TIMEOUT", "the request did not arrive in time") };
    default:
      return { status: 400, body: refusalBody("BAD_REQUEST", "the request is not valid HTTP") };
  }
}

/**
 * The server's `clientError` listener: answers on the socket and closes it. As Node does, nothing is written where a
 * response has begun on it (a later pipelined request was malformed: writing would corrupt that response), nor to a
 * socket that can no longer be written (the client reset it).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, body } = refusalOf(error);
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
