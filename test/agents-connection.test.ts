// The agents' shared connection, against a real server over real sockets.
import { setTimeout } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
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
