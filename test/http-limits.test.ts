// Issue 32: "Connections that never finish their headers are kept 85 s, bodies 325 s,
// with no cap on connections." The server's timeouts and its cap, set short and small
// here; each wait is for an event (a socket's close, an answer), with a deadline.
import { connect, type Socket } from "node:net";
import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { adminHeaders } from "./support/store.js";
import { useLiveServer } from "./support/streams.js";

const HEADERS_MS = 300;
const REQUEST_MS = 600;
const MAX_CONNECTIONS = 4;
const live = useLiveServer(
  { bookmarkIntervalMs: 100 },
  { http: { headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, keepAliveTimeoutMs: 5000, maxConnections: MAX_CONNECTIONS } },
);

const address = () => new URL(live.url);

/** A raw TCP connection to the server, and everything it is sent back. */
async function rawSocket(): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = address();
  const socket = connect(Number(port), hostname);
  let text = "";
  socket.on("data", (chunk) => {
    text += chunk.toString();
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return { socket, received: () => text, closed };
}

/** Resolves when `closed` does, or fails after `ms`. */
function within(closed: Promise<void>, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
    closed.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe("HTTP timeouts", () => {
  it("a connection that sends half its headers is answered 408 and closed after the headers timeout", async () => {
    const { socket, received, closed } = await rawSocket();
    socket.write(`POST /graphql HTTP/1.1\r\nHost: ${address().host}\r\nContent-Type: application/json\r\n`);
    await within(closed, 10_000, "half the headers");
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it("a connection that sends half its body is answered 408 and closed after the request timeout", async () => {
    const { socket, received, closed } = await rawSocket();
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: ${address().host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":`,
    );
    await within(closed, 10_000, "half the body");
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it("an SSE stream outlives the request timeout: it is a response, sent after the request was received", async () => {
    const model = await live.newModel();
    const controller = new AbortController();
    const response = await fetch(live.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...adminHeaders },
      body: JSON.stringify({ query: `subscription { changes(model: "${model.name}") { type revision } }` }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const started = performance.now();
    // Bookmarks come every 100 ms: read them until well past the request timeout.
    let bookmarks = 0;
    while (performance.now() - started < REQUEST_MS * 3) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      bookmarks += (new TextDecoder().decode(value).match(/BOOKMARK/g) ?? []).length;
    }
    expect(bookmarks).toBeGreaterThan(1);
    controller.abort();
  });

  it("a graphql-ws socket outlives both timeouts", async () => {
    const client = createClient({
      url: live.url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false, // open between operations, as an agent process's socket is
      connectionParams: adminHeaders,
    });
    const ask = () =>
      new Promise<unknown>((resolve, reject) =>
        client.subscribe({ query: "{ __typename }" }, { next: (r) => resolve(r.data), error: reject, complete: () => {} }),
      );
    let closed = false;
    client.on("closed", () => {
      closed = true;
    });
    try {
      expect(await ask()).toEqual({ __typename: "Query" });
      await new Promise((r) => setTimeout(r, REQUEST_MS * 2));
      expect(closed).toBe(false);
      expect(await ask()).toEqual({ __typename: "Query" });
    } finally {
      await client.dispose();
    }
  });
});

describe("the connection cap", () => {
  it("the connection past the cap is answered 503 TOO_MANY_CONNECTIONS, over HTTP and WebSocket; one closing makes room", async () => {
    const request = `GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: ${address().host}\r\nAccept: application/json\r\n\r\n`;
    // Connections are opened until one is refused; each accepted one is held idle on keep-alive after its answer.
    // (This process's own fetch may hold a few: the cap counts every connection.)
    const held: Awaited<ReturnType<typeof rawSocket>>[] = [];
    let refused: Awaited<ReturnType<typeof rawSocket>> | null = null;
    try {
      while (!refused && held.length <= MAX_CONNECTIONS) {
        const connection = await rawSocket();
        connection.socket.write(request);
        const answered = new Promise<void>((resolve) => connection.socket.once("data", () => resolve()));
        await within(Promise.race([answered, connection.closed]), 10_000, "a request");
        if (connection.received().startsWith("HTTP/1.1 200")) held.push(connection);
        else refused = connection;
      }
      expect(held.length).toBeLessThanOrEqual(MAX_CONNECTIONS);
      await within(refused!.closed, 10_000, "the refused connection");
      const [head, body] = refused!.received().split("\r\n\r\n");
      expect(head).toMatch(/^HTTP\/1\.1 503/);
      expect(head).toMatch(/retry-after: 1/i);
      expect(JSON.parse(body!).errors[0].extensions).toEqual({
        code: "TOO_MANY_CONNECTIONS",
        limit: "connections",
        max: MAX_CONNECTIONS,
        retryable: true,
      });
      const ws = new WebSocket(live.url.replace(/^http/, "ws"), "graphql-transport-ws");
      const status = await new Promise<number>((resolve, reject) => {
        ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.once("open", () => reject(new Error("the handshake past the cap was accepted")));
        ws.once("error", () => {});
      });
      expect(status).toBe(503);
      ws.terminate();
    } finally {
      for (const { socket } of held) socket.destroy();
    }
    // The held ones closed: a request gets through again, once the server has seen them go (a refused client retries).
    let answer: Response;
    for (let attempt = 0; ; attempt++) {
      answer = await fetch(live.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      if (answer.status !== 503 || attempt === 50) break;
      await answer.arrayBuffer();
    }
    expect(await answer.json()).toEqual({ data: { __typename: "Query" } });
  });
});
