// The cleanup queue as a stream, and the cleaner that watches it (Juju's worker/cleaner
// watches its cleanups collection): a cleanup queued wakes it, whatever else changed or
// not, and one queued to run later wakes it when it comes due. Its periodic run is set
// to an hour here, and idle streams' bookmarks to a minute, so only the queue's events
// can wake it.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { afterEach, describe, expect, it } from "vitest";
import { Cleaner } from "../src/agents/cleaner.js";
import { AgentConnection } from "../src/agents/connection.js";
import { issueMachineCredentials } from "../src/model/index.js";
import { provisionMachines } from "./support/fixtures.js";
import { EVENT_FIELDS, type Subscription, subscribe, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer({ bookmarkIntervalMs: 60_000 });
const HOUR = 3_600_000;
const DEADLINE = { timeout: scaled(15_000), interval: 50 };

const DEPLOY = `mutation ($input: DeployInput!) { deploy(input: $input) { name } }`;
const REMOVE_APP = `mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { outcome } }`;
const REMOVE_UNIT = `mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`;
const RUN_CLEANUPS = `mutation ($model: String!) { runCleanups(model: $model) { finished } }`;
const UNITS = `query ($model: String!) { model(name: $model) { units(first: 100) { edges { node { name life } } } } }`;
const APPLICATIONS = `query ($model: String!) { model(name: $model) { applications(first: 100) { edges { node { name life } } } } }`;

/** The cleaner's connection, telling when its stream has sent its state and no request of its is in flight. */
class WatchedConnection extends AgentConnection {
  synced = false;
  inFlight = 0;
  override subscribe<R, V>(
    document: TypedDocumentNode<R, V>,
    variables: V,
    token: string,
    handlers: { next: (data: R) => void; failed: (error: Error) => void },
  ): () => void {
    return super.subscribe(document, variables, token, {
      ...handlers,
      next: (data) => {
        handlers.next(data);
        if ((data as { changes?: { type: string } }).changes?.type === "BOOKMARK") this.synced = true;
      },
    });
  }
  override async request<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
    this.inFlight++;
    try {
      return await super.request(document, variables, token);
    } finally {
      this.inFlight--;
    }
  }
}

const open: (Subscription | AgentConnection | Cleaner)[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await (thing instanceof Cleaner ? thing.stop() : thing.close());
});

/** A model whose application's units sit on provisioned machines with no agent: removing them leaves them Dying. */
async function modelWithUnits(count: number) {
  const { name: model } = await live.newModel();
  await live.ok(DEPLOY, { input: { model, charm: "wordpress", numUnits: count } });
  await provisionMachines(live, model);
  return model;
}

/** Starts the model's cleaner; resolves once it has read its stream's first state and finished what that woke it for. */
async function startCleaner(model: string) {
  const { token } = await issueMachineCredentials(live.store.db, { model, machine: "0" });
  const api = new WatchedConnection(live.url);
  const cleaner = new Cleaner(api, { model, token, intervalMs: HOUR });
  open.push(api, cleaner);
  cleaner.start();
  await expect.poll(() => api.synced && api.inFlight === 0, DEADLINE).toBe(true);
  return cleaner;
}

const unitLives = async (model: string) =>
  Object.fromEntries((await live.ok(UNITS, { model })).model.units.edges.map((e: any) => [e.node.name, e.node.life]));

describe("the cleanup queue's stream (changes with kinds: [CLEANUP])", () => {
  it("starts with the queued cleanups, then gets each one queued and its removal once done; streams that name no kind get none", async () => {
    const model = await modelWithUnits(1);
    const queue = subscribe(live.url, `subscription ($m: String!) { changes(model: $m, kinds: [CLEANUP]) { ${EVENT_FIELDS} } }`, {
      m: model,
    });
    const everything = subscribe(live.url, `subscription ($m: String!) { changes(model: $m) { ${EVENT_FIELDS} } }`, { m: model });
    open.push(queue, everything);
    await Promise.all([queue.synced(), everything.synced()]);
    expect(queue.events.map((e) => e.type)).toEqual(["BOOKMARK"]); // nothing queued yet

    await live.ok(REMOVE_APP, { input: { model, applications: ["wordpress"] } }); // Dying: its units' cleanup is queued
    await queue.until((s) => s.changes.length === 1);
    const [queued] = queue.changes;
    expect(queued).toMatchObject({ kind: "CLEANUP", removed: false, life: null, cleanup: { kind: "dying-units", target: "wordpress" } });

    await startCleaner(model);
    await queue.until((s) => s.changes.some((e) => e.removed));
    expect(queue.changes.at(-1)).toMatchObject({ kind: "CLEANUP", entity: queued!.entity, removed: true });
    expect(await unitLives(model)).toEqual({ "wordpress/0": "DYING" });
    await everything.until((s) => s.changes.some((e) => e.kind === "UNIT" && e.life === "DYING"));
    expect(everything.events.filter((e) => e.kind === "CLEANUP")).toEqual([]);
  });

  it("a stream opened while cleanups wait starts with them (STATE events, oldest first)", async () => {
    const model = await modelWithUnits(2);
    await live.ok(REMOVE_UNIT, { input: { model, units: ["wordpress/0"], force: true, maxWait: 3600 } });
    await live.ok(REMOVE_UNIT, { input: { model, units: ["wordpress/1"], force: true, maxWait: 3600 } });
    const queue = subscribe(live.url, `subscription ($m: String!) { changes(model: $m, kinds: [CLEANUP]) { ${EVENT_FIELDS} } }`, {
      m: model,
    });
    open.push(queue);
    await queue.synced();
    const states = queue.events.filter((e) => e.type === "STATE");
    expect(states.map((e) => e.cleanup!.target)).toEqual(["wordpress/0", "wordpress/1"]);
    expect(states.map((e) => e.cleanup!.kind)).toEqual(["force-unit", "force-unit"]);
    expect(Number(states[0]!.entity)).toBeLessThan(Number(states[1]!.entity));
    expect(Date.parse(states[0]!.cleanup!.dueAt)).toBeGreaterThan(Date.now() + HOUR / 2);
  });
});

describe("the cleaner", { timeout: scaled(60_000) }, () => {
  it("runs a cleanup queued with no entity changing life at once: force on an application already Dying removes its units", async () => {
    const model = await modelWithUnits(2);
    await live.ok(REMOVE_APP, { input: { model, applications: ["wordpress"] } });
    await live.ok(RUN_CLEANUPS, { model }); // as a cleaner would have: the units go Dying
    expect(await unitLives(model)).toEqual({ "wordpress/0": "DYING", "wordpress/1": "DYING" });
    await startCleaner(model);
    // Nothing changes life here: the application and its units are Dying already. Only the queued cleanup says there is work.
    expect((await live.ok(REMOVE_APP, { input: { model, applications: ["wordpress"], force: true } })).removeApplication).toEqual([
      { outcome: "UNCHANGED" },
    ]);
    await expect.poll(async () => (await live.ok(APPLICATIONS, { model })).model.applications.edges, DEADLINE).toEqual([]);
    expect(await unitLives(model)).toEqual({});
  });

  it("runs a cleanup queued to run later when it comes due (a forced removal's max-wait)", async () => {
    const model = await modelWithUnits(1);
    await startCleaner(model);
    const asked = Date.now();
    await live.ok(REMOVE_UNIT, { input: { model, units: ["wordpress/0"], force: true, maxWait: 1 } });
    expect(await unitLives(model)).toEqual({ "wordpress/0": "DYING" });
    await expect.poll(() => unitLives(model), DEADLINE).toEqual({});
    expect(Date.now() - asked).toBeGreaterThanOrEqual(1000); // not before it was due
  });
});
