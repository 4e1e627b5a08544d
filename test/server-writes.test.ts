// What the server writes on an agent's socket (src/server/coalesce-writes.ts): each
// write is a system call, and a request's answer is two frames (`next`, `complete`).

import { once } from "node:events";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DEPLOY, SET_CONSTRAINTS } from "./support/fixtures.js";
import { adminHeaders } from "./support/store.js";
import { type LiveServer, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const sockets: WebSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});

/** A graphql-ws client by hand, so that every frame the server writes is seen; and the server's writes on its socket, counted. */
async function rawClient(server: LiveServer) {
  let accepted: Socket | undefined;
  const onConnection = (socket: Socket) => {
    if (!accepted) accepted = socket;
  };
  server.running.server.on("connection", onConnection);
  const ws = new WebSocket(server.url.replace(/^http/, "ws"), "graphql-transport-ws");
  sockets.push(ws);
  const frames: { type: string; id?: string }[] = [];
  ws.on("message", (data) => frames.push(JSON.parse(String(data))));
  await once(ws, "open");
  server.running.server.off("connection", onConnection);
  const tcp = accepted!;
  let writes = 0;
  for (const method of ["_write", "_writev"] as const) {
    const original = (tcp as any)[method].bind(tcp);
    (tcp as any)[method] = (...args: unknown[]) => {
      writes++;
      return original(...args);
    };
  }
  ws.send(JSON.stringify({ type: "connection_init", payload: adminHeaders }));
  await waitFor(() => frames.some((f) => f.type === "connection_ack"));
  return {
    frames,
    writes: () => writes,
    request(id: string, query: string, variables: Record<string, unknown>) {
      ws.send(JSON.stringify({ type: "subscribe", id, payload: { query, variables } }));
    },
  };
}

async function waitFor(done: () => boolean, deadlineMs = 5000): Promise<void> {
  const deadline = Date.now() + scaled(deadlineMs);
  while (!done()) {
    if (Date.now() > deadline) throw new Error("deadline passed");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("the server's writes on a graphql-ws socket", () => {
  it("sends a request's answer and its completion in one write", async () => {
    const { name: model } = await live.newModel();
    await live.ok(DEPLOY, { input: { model, charm: "memcached", application: "cache", numUnits: 0 } });
    const client = await rawClient(live);
    for (const [i, constraints] of ["mem=1G", "mem=2G", "mem=4G"].entries()) {
      const before = client.writes();
      client.request(`r${i}`, SET_CONSTRAINTS, { input: { model, application: "cache", constraints } });
      await waitFor(() => client.frames.some((f) => f.type === "complete" && f.id === `r${i}`));
      expect(client.frames.filter((f) => f.id === `r${i}`).map((f) => f.type)).toEqual(["next", "complete"]);
      expect(client.writes() - before).toBe(1);
    }
  });
});
