// Issue 12, point 8: what happens to a client that stops reading, said once and checked.
// docs/streams.md: a stream never drops a slow reader (the log is the buffer), but graphql-ws
// drops a socket whose pings go unanswered for a keep-alive interval (LIFELINE_WS_KEEPALIVE_MS,
// 12 s by default; half-open connections look exactly like this). Nothing is lost: the client
// resumes with `since` and gets every change it missed, in order.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { adminHeaders } from "./support/store.js";
import { CHANGES, type StreamEvent, Subscription, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const KEEP_ALIVE_MS = 200;
const live = useLiveServer({}, { keepAliveMs: KEEP_ALIVE_MS });

const connections = () =>
  new Promise<number>((resolve, reject) => live.running.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

/** A graphql-ws subscription over a raw socket, so the test can stop reading from it. */
function rawSubscription(variables: Record<string, unknown>) {
  const events: StreamEvent[] = [];
  const socket = new WebSocket(live.url.replace(/^http/, "ws"), "graphql-transport-ws");
  let closed = false;
  socket.on("close", () => {
    closed = true;
  });
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: adminHeaders })));
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    if (message.type === "connection_ack")
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: CHANGES, variables } }));
    if (message.type === "next") events.push(message.payload.data.changes);
  });
  return {
    events,
    socket,
    get closed() {
      return closed;
    },
  };
}

describe("a client that stops reading", () => {
  it("is dropped after its pings go unanswered, and resumes with `since` without losing a change", async () => {
    const model = await live.newModel();
    const before = await connections();
    const reader = rawSubscription({ model: model.name, kinds: ["APPLICATION"] });
    await expect.poll(() => reader.events.some((e) => e.type === "BOOKMARK"), { timeout: scaled(15_000) }).toBe(true);
    const seen = reader.events.at(-1)!.revision;

    // Stop reading at the TCP level: the client sees no ping, so it sends no pong.
    (reader.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql" }) { name } }`, { model: model.name });
    await expect.poll(connections, { timeout: scaled(15_000), interval: 50 }).toBe(before);
    expect(reader.events.some((e) => e.type === "CHANGE")).toBe(false);

    const resumed = new Subscription(live.url, CHANGES, { model: model.name, kinds: ["APPLICATION"], since: seen });
    try {
      await resumed.until((s) => s.changes.some((e) => e.entity === "mysql"));
      expect(resumed.errors).toBeNull();
    } finally {
      await resumed.close();
      reader.socket.terminate();
    }
  });

  it("a client that keeps reading stays connected across many keep-alive intervals", async () => {
    const model = await live.newModel();
    const reader = rawSubscription({ model: model.name, kinds: ["APPLICATION"] });
    await expect.poll(() => reader.events.some((e) => e.type === "BOOKMARK"), { timeout: scaled(15_000) }).toBe(true);
    // Ten intervals, measured by the server's own pings answered (ws answers them while it reads).
    let pings = 0;
    reader.socket.on("ping", () => pings++);
    await expect.poll(() => pings, { timeout: scaled(15_000), interval: 50 }).toBeGreaterThanOrEqual(10);
    expect(reader.closed).toBe(false);
    reader.socket.terminate();
  });
});
