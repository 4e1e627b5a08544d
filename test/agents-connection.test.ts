// The agents' shared connection, against a real server over real sockets.
import net from "node:net";
import { setTimeout } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AgentConnection } from "../src/agents/connection.js";
import { SetMachineStatusDocument } from "../src/client/graphql.js";
import { issueMachineCredentials } from "../src/model/index.js";
import { useLiveServer } from "./support/streams.js";

const live = useLiveServer();
const connections: AgentConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
});

describe("an agent process's connection", () => {
  it("sends an agent's requests on one socket, also when it works a while between them (a hook runs, say)", async () => {
    const { name: model } = await live.newModel();
    const { token } = await issueMachineCredentials(live.store.db, { model, machine: "0" });
    let opened = 0;
    const count = () => void opened++;
    live.running.server.on("connection", count);
    try {
      const api = new AgentConnection(live.url);
      connections.push(api);
      for (const status of ["STARTED", "STOPPED", "STARTED", "STOPPED", "STARTED"] as const) {
        await api.request(SetMachineStatusDocument, { input: { model, machine: "0", status } }, token);
        await setTimeout(20); // the agent's own work, with nothing in flight on the socket
      }
      expect(opened).toBe(1);
    } finally {
      live.running.server.off("connection", count);
    }
  });
});

describe("requests in flight", () => {
  it("a process's agents have at most 128 requests on the server at once; the rest wait in the process, and all are answered", async () => {
    const { name: model } = await live.newModel();
    const { token } = await issueMachineCredentials(live.store.db, { model, machine: "0" });
    // On the server's sockets: each subscribe message received begins an operation, each complete sent ends one.
    let onServer = 0;
    let most = 0;
    const { emit, send } = WebSocket.prototype;
    WebSocket.prototype.emit = function (this: WebSocket, event: string | symbol, ...args: unknown[]) {
      if (event === "message" && String(args[0]).includes('"type":"subscribe"')) most = Math.max(most, ++onServer);
      return emit.call(this, event, ...args);
    } as typeof emit;
    WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]) {
      if (typeof data === "string" && data.includes('"type":"complete"')) onServer--;
      return (send as (...a: unknown[]) => void).call(this, data, ...rest);
    } as typeof send;
    try {
      const api = new AgentConnection(live.url);
      connections.push(api);
      const statuses = Array.from({ length: 400 }, (_, i) => (i % 2 ? "STARTED" : "STOPPED") as "STARTED" | "STOPPED");
      await Promise.all(statuses.map((status) => api.request(SetMachineStatusDocument, { input: { model, machine: "0", status } }, token)));
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(128);
    } finally {
      WebSocket.prototype.emit = emit;
      WebSocket.prototype.send = send;
    }
  });
});

describe("writes", () => {
  it("what the agents of a process send within one turn leaves in one write (each write is a system call)", async () => {
    const { name: model } = await live.newModel();
    const { token } = await issueMachineCredentials(live.store.db, { model, machine: "0" });
    const api = new AgentConnection(live.url);
    connections.push(api);
    const send = (status: "STARTED" | "STOPPED") =>
      api.request(SetMachineStatusDocument, { input: { model, machine: "0", status } }, token);
    await send("STARTED"); // the socket is open
    const port = Number(new URL(live.url).port);
    const writes: string[] = [];
    const socket = net.Socket.prototype as unknown as Record<"_write" | "_writev", (...args: unknown[]) => unknown>;
    const spies = (["_write", "_writev"] as const).map((method) => {
      const original = socket[method]!;
      socket[method] = function (this: net.Socket, ...args: unknown[]) {
        if (this.remotePort === port) writes.push(method);
        return original.apply(this, args);
      };
      return () => {
        socket[method] = original;
      };
    });
    try {
      await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? "STARTED" : "STOPPED")));
    } finally {
      for (const restore of spies) restore();
    }
    // Ten requests from the agents, in one write; uncorked, each went in a write of its own.
    expect(writes).toEqual(["_writev"]);
  });
});
