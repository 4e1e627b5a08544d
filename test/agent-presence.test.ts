// Agent presence (Juju's presence pinger): an agent's live connection is its heartbeat.
// One whose connection is gone for longer than the grace period is lost: its unit's agent
// status reads `lost`, its machine `down`, in queries and on streams, and a removal that
// waits on it says so; when it comes back, the status it last set reads again by itself.
// The agents here are real agent connections (src/agents/connection.ts) with their own
// credentials, driven by hand; the grace period is short (PRESENCE). Waits are for events
// or polls with a deadline, never sleeps.

import { sql } from "drizzle-orm";
import { print } from "graphql";
import { type Client, createClient } from "graphql-ws";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { AgentConnection } from "../src/agents/connection.js";
import { MachineLifeDocument, SetMachineStatusDocument, SetUnitAgentStatusDocument, UnitLifeDocument } from "../src/client/graphql.js";
import { shownMachineStatus } from "../src/core/presence.js";
import { rowsOf, type Store } from "../src/db/connect.js";
import { issueMachineCredentials, issueUnitCredentials } from "../src/model/index.js";
import { type RunningServer, startServer } from "../src/server/app.js";
import { useAgents } from "./support/agents.js";
import { type LifelineProcess, startLifeline } from "./support/lifeline-process.js";
import { restartablePort } from "./support/ports.js";
import { onPostgres, openTestStore, uniqueName } from "./support/store.js";
import { CHANGES, EVENT_FIELDS, type LiveServer, post, subscribe } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

/** A socket whose errors (its server killed under it) nobody needs to hear. */
class QuietWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    this.on("error", () => {});
  }
}

const GRACE_MS = 1500;
const PRESENCE = { graceMs: GRACE_MS };
const DEADLINE = { timeout: scaled(20_000), interval: 50 };

let store: Store;
let running: RunningServer;
let url: string;
const live = {} as LiveServer;
const agentsFor = useAgents(live);

async function ok<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await post(url, query, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

beforeAll(async () => {
  store = await openTestStore();
  // A port outside the ephemeral range: a spec restarts the server on it (restartablePort says why).
  running = await startServer(store, "127.0.0.1", await restartablePort(), { feed: { pollIntervalMs: 250 }, presence: PRESENCE });
  url = running.url;
  Object.assign(live, { store, running, url, post: (q: string, v?: Record<string, unknown>) => post(url, q, v), ok });
});
afterAll(async () => {
  await running?.close();
  await store?.close();
});

const UNIT = `query ($model: String!, $unit: String!) { model(name: $model) { unit(name: $unit) {
  life agentStatus { current message since } blockers { kind message entities }
} } }`;
const MACHINE = `query ($model: String!, $machine: String!) { model(name: $model) { machine(id: $machine) {
  life status { current message since } blockers { kind message entities }
} } }`;
const unitOf = async (model: string, unit: string) => (await ok(UNIT, { model, unit })).model.unit;
const machineOf = async (model: string, machine: string) => (await ok(MACHINE, { model, machine })).model.machine;

/** A model with wordpress/0 on machine 1, provisioned; each agent on a connection of its own, having reported. */
async function scene() {
  const model = uniqueName();
  await ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: model });
  await ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress", numUnits: 1 }) { name } }`, { model });
  await ok(`mutation ($model: String!) { setMachineProvisioned(input: { model: $model, machine: "1", instanceId: "i-1" }) { id } }`, {
    model,
  });
  const machineToken = (await issueMachineCredentials(store.db, { model, machine: "1" })).token;
  const unitToken = (await issueUnitCredentials(store.db, { model, unit: "wordpress/0" })).token;
  const machineAgent = agent(model, { machine: "1", token: machineToken });
  const unitAgent = agent(model, { unit: "wordpress/0", token: unitToken });
  await machineAgent.report();
  await unitAgent.report();
  return { model, machineAgent, unitAgent };
}

/** An agent as its process runs it: its stream open, its status reported, all on a connection of its own. */
function agent(model: string, who: { machine: string; token: string } | { unit: string; token: string }) {
  const connection = new AgentConnection(url);
  const events: Record<string, any>[] = [];
  const unsubscribe =
    "machine" in who
      ? connection.subscribe(MachineLifeDocument, { model, machine: who.machine }, who.token, {
          next: (d) => events.push(d.machineLife),
          failed: () => {},
        })
      : connection.subscribe(UnitLifeDocument, { model, unit: who.unit }, who.token, {
          next: (d) => events.push(d.unitLife),
          failed: () => {},
        });
  return {
    connection,
    events,
    report: () =>
      "machine" in who
        ? connection.request(SetMachineStatusDocument, { input: { model, machine: who.machine, status: "STARTED" } }, who.token)
        : connection.request(SetUnitAgentStatusDocument, { input: { model, unit: who.unit, status: "IDLE" } }, who.token),
    /** Its process goes away: every socket closes. */
    gone: async () => {
      unsubscribe();
      await connection.close();
    },
  };
}

describe("an agent whose connection is gone for longer than the grace period is lost", { timeout: scaled(60_000) }, () => {
  it("its unit's agent status reads lost, with Juju's message and since when, once the grace period has passed", async () => {
    const { model, unitAgent } = await scene();
    expect((await unitOf(model, "wordpress/0")).agentStatus.current).toBe("idle");
    const left = Date.now();
    await unitAgent.gone();
    await expect.poll(async () => (await unitOf(model, "wordpress/0")).agentStatus.current, DEADLINE).toBe("lost");
    expect(Date.now() - left).toBeGreaterThanOrEqual(GRACE_MS - 100);
    const { agentStatus } = await unitOf(model, "wordpress/0");
    expect(agentStatus.message).toBe("agent lost, see its hook history");
    // Since when it was last connected: its departure, not when it was marked.
    expect(Math.abs(Date.parse(agentStatus.since) - left)).toBeLessThan(1000);
  });

  it("an agent whose unit is Dead by then has finished: its presence is forgotten, its unit not marked lost", async () => {
    const { model, unitAgent } = await scene();
    await ok(`mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { life } }`, { input: { model, unit: "wordpress/0" } });
    await unitAgent.gone();
    const presence = async () =>
      rowsOf<{ n: number }>(
        await store.db.execute(
          sql`select count(*)::int as n from agent_presence p join models m on m.id = p.model_id where m.name = ${model} and p.kind = 'unit'`,
        ),
      )[0]!.n;
    await expect.poll(presence, DEADLINE).toBe(0);
    expect((await unitOf(model, "wordpress/0")).agentStatus.current).not.toBe("lost");
  });

  it("a changes stream sees the unit's agent lost as a CHANGE event", async () => {
    const { model, unitAgent } = await scene();
    const stream = subscribe(url, CHANGES, { model, kinds: ["UNIT"], entities: ["wordpress/0"] });
    await stream.synced();
    await unitAgent.gone();
    await stream.until((s) => s.changes.some((e) => e.unit?.agentStatus?.current === "lost"), DEADLINE.timeout);
    const lost = stream.changes.find((e) => e.unit?.agentStatus?.current === "lost")!;
    expect(lost.unit!.agentStatus).toMatchObject({ message: "agent lost, see its hook history", hook: null });
    expect(typeof lost.unit!.agentLostSince).toBe("string");
  });

  it("a machine whose agent is lost reads down, in a query and as a stream event", async () => {
    const { model, machineAgent } = await scene();
    const stream = subscribe(url, CHANGES, { model, kinds: ["MACHINE"], entities: ["1"] });
    await stream.synced();
    await machineAgent.gone();
    await expect
      .poll(async () => (await machineOf(model, "1")).status, DEADLINE)
      .toMatchObject({
        current: "down",
        message: "agent is not communicating with the server",
      });
    await stream.until((s) => s.changes.some((e) => e.machine?.status?.current === "down"), DEADLINE.timeout);
    // The unit's agent is still connected: it is not lost with its machine's.
    expect((await unitOf(model, "wordpress/0")).agentStatus.current).toBe("idle");
  });

  it("a Dying unit whose agent is lost says so in its blockers, since when, and that force removes it", async () => {
    const { model, unitAgent } = await scene();
    await ok(`mutation ($model: String!) { removeUnit(input: { model: $model, units: ["wordpress/0"] }) { id outcome } }`, { model });
    await unitAgent.gone();
    await expect.poll(async () => (await unitOf(model, "wordpress/0")).agentStatus.current, DEADLINE).toBe("lost");
    const unit = await unitOf(model, "wordpress/0");
    expect(unit.life).toBe("DYING");
    const [first] = unit.blockers;
    expect(first.kind).toBe("AGENT_LOST");
    expect(first.entities).toEqual(["wordpress/0"]);
    expect(first.message).toContain(`not connected since ${new Date(unit.agentStatus.since).toISOString()}`);
    expect(first.message).toContain("removeUnit with force removes the unit anyway");
    // Not also "waiting for its unit agent": the lost one says why.
    expect(unit.blockers.map((b: any) => b.kind)).not.toContain("AGENT");
  });

  it("an agent that comes back reads the status it last set again, by itself, on queries and streams", async () => {
    const { model, unitAgent } = await scene();
    const stream = subscribe(url, CHANGES, { model, kinds: ["UNIT"], entities: ["wordpress/0"] });
    await stream.synced();
    await unitAgent.gone();
    await expect.poll(async () => (await unitOf(model, "wordpress/0")).agentStatus.current, DEADLINE).toBe("lost");
    // Its process starts again: a new connection, its stream; it sets no status.
    const { token } = await issueUnitCredentials(store.db, { model, unit: "wordpress/0" });
    const again = agent(model, { unit: "wordpress/0", token });
    await expect.poll(() => again.events.some((e) => e.type === "BOOKMARK"), DEADLINE).toBe(true);
    // Its first operation waited for its return: its own stream never said lost.
    expect(again.events.filter((e) => e.kind === "UNIT").map((e) => e.unit?.agentStatus?.current)).toEqual(["idle"]);
    expect((await unitOf(model, "wordpress/0")).agentStatus).toMatchObject({ current: "idle", message: "" });
    await stream.until((s) => s.changes.at(-1)?.unit?.agentStatus?.current === "idle", DEADLINE.timeout);
    expect(stream.changes.map((e) => e.unit?.agentStatus?.current)).toEqual(["lost", "idle"]);
    expect(stream.changes.at(-1)!.unit!.agentLostSince).toBeNull();
    await again.gone();
  });
});

describe("an agent never reads itself lost", { timeout: scaled(60_000) }, () => {
  it("unitLife, the unit agent's own stream, passes no row saying its agent is lost; changes does", async () => {
    const { model, unitAgent } = await scene();
    const own = subscribe(
      url,
      `subscription ($model: String!, $unit: String!) { unitLife(model: $model, unit: $unit) { ${EVENT_FIELDS} } }`,
      {
        model,
        unit: "wordpress/0",
      },
    );
    const all = subscribe(url, CHANGES, { model, kinds: ["UNIT"], entities: ["wordpress/0"] });
    await Promise.all([own.synced(), all.synced()]);
    await unitAgent.gone();
    await all.until((s) => s.changes.some((e) => e.unit?.agentStatus?.current === "lost"), DEADLINE.timeout);
    // Something after the lost row reaches both: the workload status, set by an operator.
    await ok(`mutation ($model: String!) { setWorkloadStatus(input: { model: $model, unit: "wordpress/0", status: ACTIVE }) { name } }`, {
      model,
    });
    await own.until((s) => s.changes.some((e) => e.unit?.workloadStatus?.current === "active"), DEADLINE.timeout);
    expect(own.changes.map((e) => e.unit?.agentStatus ?? null)).toEqual([null]);
  });
});

describe("what is not lost", { timeout: scaled(60_000) }, () => {
  it("a machine in error, pending or Dead does not read down when its agent is lost: its own status says more", () => {
    const lostSince = new Date("2025-01-01T00:00:00Z");
    const shown = (status: string, life = "alive") =>
      shownMachineStatus({ life, status, statusMessage: "", statusSince: new Date(), agentLostSince: lostSince }).status;
    expect([shown("started"), shown("stopped", "dying")]).toEqual(["down", "down"]);
    expect([shown("error"), shown("pending"), shown("stopped", "dead")]).toEqual(["error", "pending", "stopped"]);
  });

  it("a server restarted within the grace period flaps nothing: its agents reconnect to the new one and none reads lost", async () => {
    const { model, unitAgent, machineAgent } = await scene();
    const { revision } = (await ok(`query ($model: String!) { model(name: $model) { revision } }`, { model })).model;
    const port = new URL(url).port;
    await running.close();
    // Its idle streams bookmark often: the resumed stream below says soon that it has seen everything.
    running = await startServer(store, "127.0.0.1", Number(port), {
      feed: { pollIntervalMs: 250, bookmarkIntervalMs: 250 },
      presence: PRESENCE,
    });
    // Both come back to the new server by themselves (their streams resubscribe)...
    const servers = async () =>
      rowsOf<{ server: string }>(
        await store.db.execute(
          sql`select p.server from agent_presence p join models m on m.id = p.model_id where m.name = ${model} order by p.kind`,
        ),
      ).map((r) => r.server);
    await expect.poll(servers, DEADLINE).toEqual([running.presence!.id, running.presence!.id]);
    // ... and the old server's lease runs out: its agents would be lost now, had they not come back.
    const stream = subscribe(url, CHANGES, { model, since: String(revision) });
    const until = Date.now() + 2 * GRACE_MS;
    await expect.poll(() => Date.now() >= until, { timeout: scaled(10_000), interval: 100 }).toBe(true);
    const after = (await ok(`query ($model: String!) { model(name: $model) { revision } }`, { model })).model.revision;
    await stream.until((s) => s.events.some((e) => e.type === "BOOKMARK" && BigInt(e.revision) >= BigInt(after)));
    expect(stream.changes).toEqual([]);
    expect((await unitOf(model, "wordpress/0")).agentStatus.current).toBe("idle");
    expect((await machineOf(model, "1")).status.current).toBe("started");
    await Promise.all([unitAgent.gone(), machineAgent.gone()]);
  });

  it("the controller's own agents (machine 0's, beside the server) count as connected, and machine 0 reads down once they stop", async () => {
    const model = uniqueName();
    await ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: model });
    const { controller } = await agentsFor(model);
    await expect.poll(async () => (await machineOf(model, "0")).status.current, DEADLINE).toBe("started");
    const started = Date.now();
    await expect.poll(() => Date.now() - started >= 2 * GRACE_MS, { timeout: scaled(10_000), interval: 100 }).toBe(true);
    expect((await machineOf(model, "0")).status.current).toBe("started");
    await controller.stop();
    await expect.poll(async () => (await machineOf(model, "0")).status.current, DEADLINE).toBe("down");
  });
});

describe.skipIf(!onPostgres)(
  "several server processes on one PostgreSQL database (skipped on PGlite: one process per data directory)",
  { timeout: scaled(120_000) },
  () => {
    // A database of their own: each process sweeps every agent in its database.
    const admin = onPostgres ? postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} }) : null;
    const database = uniqueName("lifeline_presence").replaceAll("-", "_");
    const databaseUrl = new URL(process.env.DATABASE_URL ?? "postgres://unused");
    databaseUrl.pathname = `/${database}`;
    const servers: LifelineProcess[] = [];
    const clients: Client[] = [];
    beforeAll(async () => {
      await admin!.unsafe(`create database "${database}"`);
    });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.dispose()));
      for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await Promise.all(servers.map((s) => s.exited));
      await admin?.unsafe(`drop database if exists "${database}" with (force)`);
      await admin?.end();
    });
    const server = () => {
      const started = startLifeline({
        DATABASE_URL: databaseUrl.toString(),
        LIFELINE_AGENTS: "0",
        LIFELINE_AGENT_GRACE_MS: String(GRACE_MS),
      });
      servers.push(started);
      return started;
    };

    it("agents connected to each; one process killed: its agents are lost after the grace period, the other's stay", async () => {
      // One after the other: the first migrates the fresh database.
      const a = server();
      const urlA = await a.ready();
      const b = server();
      const urlB = await b.ready();
      await b.ok(`mutation { deploy(input: { charm: "wordpress", numUnits: 2 }) { name } }`);
      for (const machine of ["1", "2"])
        await b.ok(`mutation ($machine: String!) { setMachineProvisioned(input: { machine: $machine, instanceId: $machine }) { id } }`, {
          machine,
        });
      /**
       * A unit's agent connected to one process (its stream open), having reported idle. Its socket does not
       * reconnect: the process it is connected to gets killed.
       */
      const unitAgent = async (unit: string, via: string) => {
        const { token } = (await b.ok(`mutation ($unit: String!) { issueUnitCredentials(input: { unit: $unit }) { token } }`, { unit }))
          .issueUnitCredentials;
        const client = createClient({
          url: via.replace(/^http/, "ws"),
          webSocketImpl: QuietWebSocket,
          retryAttempts: 0,
          connectionParams: { authorization: `Bearer ${token}` },
        });
        clients.push(client);
        await new Promise<void>((resolve) =>
          client.subscribe(
            { query: print(UnitLifeDocument), variables: { model: "default", unit } },
            { next: (r: any) => r.data?.unitLife.type === "BOOKMARK" && resolve(), error: () => {}, complete: () => {} },
          ),
        );
        const reported = await fetch(via, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: print(SetUnitAgentStatusDocument),
            variables: { input: { model: "default", unit, status: "IDLE" } },
          }),
        });
        expect((await reported.json()).errors).toBeUndefined();
      };
      await unitAgent("wordpress/0", urlA);
      await unitAgent("wordpress/1", urlB);
      const statuses = async () =>
        Object.fromEntries(
          (await b.ok(`{ model(name: "default") { units { edges { node { name agentStatus { current } } } } } }`)).model.units.edges.map(
            (e: any) => [e.node.name, e.node.agentStatus.current],
          ),
        );
      expect(await statuses()).toEqual({ "wordpress/0": "idle", "wordpress/1": "idle" });

      a.child.kill("SIGKILL");
      await a.exited;
      const killed = Date.now();
      await expect.poll(statuses, DEADLINE).toEqual({ "wordpress/0": "lost", "wordpress/1": "idle" });
      expect(Date.now() - killed).toBeGreaterThanOrEqual(GRACE_MS - 500); // its last heartbeat was before the kill
      // And the other's stays connected well past the grace period.
      const waited = Date.now();
      await expect.poll(() => Date.now() - waited >= 2 * GRACE_MS, { timeout: scaled(10_000), interval: 100 }).toBe(true);
      expect(await statuses()).toEqual({ "wordpress/0": "lost", "wordpress/1": "idle" });
    });
  },
);
