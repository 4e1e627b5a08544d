// The write cycle's round trips to PostgreSQL (issue 11): a socket write to the server
// costs more of the server's CPU than any other single step of a mutation (a profile of
// bench/writes.ts), so each operation sends what it can together: statements whose answer
// it does not need yet go with the next one (Tx.defer), and reads that need only the
// operation's input go with the model's lock (modelOperationReading). These specs count
// the writes to the operation's connection: a statement added, or awaited where it was
// sent ahead, makes one fail.
import net from "node:net";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeFeed } from "../src/changes/feed.js";
import { compactModel } from "../src/changes/retention.js";
import type { ChangeStream } from "../src/changes/stream.js";
import {
  applicationRelations,
  machineLife,
  machineUnits,
  modelChanges,
  relationMembers,
  relationUnits,
  together,
  unitLife,
  type Watcher,
} from "../src/changes/watchers.js";
import { UnitAgentStatus } from "../src/core/machine.js";
import { openStore, type Store } from "../src/db/connect.js";
import { models } from "../src/db/schema.js";
import { statement } from "../src/db/statement.js";
import { inSnapshot } from "../src/db/transaction-runner.js";
import {
  addMachine,
  addModel,
  addUnit,
  beginHook,
  commitHook,
  deploy,
  enterScope,
  enterScopes,
  integrate,
  issueMachinesCredentials,
  issueUnitCredentials,
  leaveScope,
  recordMissingHooks,
  recordUnitsMissingHooks,
  removeApplications,
  removeDeadMachine,
  removeDeadUnit,
  removeDeadUnits,
  removeRelations,
  removeUnits,
  setConstraints,
  setMachineDead,
  setMachineProvisioned,
  setMachineStatus,
  setMachinesProvisioned,
  setUnitAgentStatus,
  setUnitDead,
  setUnitsDead,
  setWorkloadStatus,
} from "../src/model/index.js";
import { createPrivateDatabase, onPostgres, uniqueName } from "./support/store.js";

/**
 * The round trips `run` takes on the busiest of this process's sockets: an operation runs on one connection of its own
 * (BEGIN and COMMIT travel with statements: src/db/transaction-runner.ts). postgres.js ends each statement with a Sync
 * (or sends it as one simple Query), which PostgreSQL answers with a ReadyForQuery, in order: so the nth ReadyForQuery
 * read answers the nth statement sent.
 * A write starts a new trip once some statement the current trip sent has been answered: the client waited for it.
 * Counting by bytes alone over-counted: postgres.js hands a batch over 1 KiB to the socket at once and the rest behind
 * it, and an answer to the trip before can arrive between the two.
 */
async function roundTrips(run: () => Promise<unknown>): Promise<number> {
  return (await traffic(run)).trips;
}

/** The statements `run` sends on the busiest of this process's sockets (each ends in a Sync, or is one simple Query). */
async function statementsSent(run: () => Promise<unknown>): Promise<number> {
  return (await traffic(run)).statements;
}

async function traffic(run: () => Promise<unknown>): Promise<{ trips: number; statements: number }> {
  interface Seen {
    trips: number;
    /** Statements sent, and answered (ReadyForQuery read), since counting began. */
    sent: number;
    answered: number;
    /** Statements sent before the current trip's first write. */
    sentBeforeTrip: number;
    unread: Buffer;
    stop: () => void;
  }
  const sockets = new Map<net.Socket, Seen>();
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
    let seen = sockets.get(this);
    if (!seen) {
      const onData = (data: Buffer) => {
        const s = sockets.get(this)!;
        s.unread = messages(Buffer.concat([s.unread, data]), (type) => {
          if (type === READY_FOR_QUERY) s.answered++;
        });
      };
      this.on("data", onData);
      seen = { trips: 0, sent: 0, answered: 0, sentBeforeTrip: 0, unread: Buffer.alloc(0), stop: () => this.off("data", onData) };
      sockets.set(this, seen);
    }
    if (seen.trips === 0 || seen.answered > seen.sentBeforeTrip) {
      seen.trips++;
      seen.sentBeforeTrip = seen.sent;
    }
    messages(Buffer.from(args[0] as Uint8Array), (type) => {
      if (type === SYNC || type === QUERY) seen.sent++;
    });
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;
  try {
    await run();
  } finally {
    net.Socket.prototype.write = write;
    for (const seen of sockets.values()) seen.stop();
  }
  const busiest = [...sockets.values()].sort((a, b) => b.sent - a.sent)[0];
  return { trips: busiest?.trips ?? 0, statements: busiest?.sent ?? 0 };
}

const SYNC = 0x53; // 'S', sent: the end of a statement in the extended protocol
const QUERY = 0x51; // 'Q', sent: a statement in the simple protocol (postgres.js's, for one without parameters)
const READY_FOR_QUERY = 0x5a; // 'Z', read

/** Calls `each` with the type of every whole protocol message in `buffer` (a type byte, then a length that counts itself); returns the rest. */
function messages(buffer: Buffer, each: (type: number) => void): Buffer {
  let at = 0;
  while (buffer.length - at >= 5) {
    const end = at + 1 + buffer.readInt32BE(at + 1);
    if (end > buffer.length) break;
    each(buffer[at]!);
    at = end;
  }
  return buffer.subarray(at);
}

/** A statement built once (src/db/statement.ts): the session's isolation level where it runs. */
const isolationOf = statement([], (db) =>
  db.select({ level: sql<string>`current_setting('transaction_isolation')` }).from(models).limit(1),
);

describe.skipIf(!onPostgres)("round trips of the write cycle (PostgreSQL only; PGlite runs in-process)", () => {
  let store: Store;
  let database: { url: string; drop(): Promise<void> };
  const model = uniqueName("trips");
  let machine: string;
  let relation: number;
  beforeAll(async () => {
    // One connection, so that the warm-up cycle below prepares every statement on it (a statement's first run on a
    // connection takes a round trip more: src/db/prepared.ts).
    // A database of its own: another file's server compacting every model's log (retention.ts) moves this model's row,
    // and the next write's lock, taken as last committed, is then retried with a round trip more (model-lock.ts).
    database = await createPrivateDatabase();
    store = await openStore({ databaseUrl: database.url, maxConnections: 1 });
    await addModel(store.db, { name: model });
    await deploy(store.db, { model, charm: "memcached", application: "cache", numUnits: 0 });
    machine = (await addMachine(store.db, { model })).id;
    await addUnit(store.db, { model, application: "cache", count: 1 }); // on a new machine: its numbers asked together
    // Provisioned, so that a removed unit goes Dying and waits for its agent (seed 004).
    await setMachineProvisioned(store.db, { model, machine, instanceId: "i-trips" });
    await deploy(store.db, { model, charm: "wordpress", application: "web", numUnits: 0 });
    relation = (await integrate(store.db, { model, endpoints: ["web", "cache"] })).id;
    const unit = await newUnit();
    await recordMissingHooks(store.db, { model, unit, hooks: [{ hook: "update-status" }] });
    await removeUnits(store.db, { model, targets: [unit] });
    await setUnitDead(store.db, { model, unit });
    await removeDeadUnit(store.db, { model, unit });
    const agent = await newUnit();
    await issueUnitCredentials(store.db, { model, unit: agent });
    await beginHook(store.db, { model, unit: agent, hook: "install" });
    const run = await beginHook(store.db, { model, unit: agent, hook: "install" }); // interrupts the first
    await commitHook(store.db, { model, unit: agent, run: String(run.id), result: "succeeded" });
    const missing = [{ hook: "cache-relation-changed", relation, remoteUnit: "web/0" }, { hook: "update-status" }];
    await recordMissingHooks(store.db, { model, unit: agent, hooks: missing, state: { warm: true } });
    await setWorkloadStatus(store.db, { model, unit: agent, status: "active", message: "warm" });
    await enterScope(store.db, { model, relation, unit: agent, privateAddress: "10.0.0.1" });
    await leaveScope(store.db, { model, relation, unit: agent });
    const spare = (await addMachine(store.db, { model })).id;
    await setMachineProvisioned(store.db, { model, machine: spare, instanceId: "i-spare" });
    await setMachineStatus(store.db, { model, machine: spare, status: "started" });
    await setMachineDead(store.db, { model, machine: spare });
    await removeDeadMachine(store.db, { model, machine: spare });
    await setConstraints(store.db, { model, application: "cache", constraints: "cores=1" });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** A unit of the application, Alive on the provisioned machine. */
  const newUnit = async () => (await addUnit(store.db, { model, application: "cache", count: 1, placement: [machine] }))[0]!.name;

  it("addUnit on a machine: the lock with the application; the unit's number, place and time with the machine; the unit and its application's count with the commit", async () => {
    expect(await roundTrips(() => newUnit())).toBe(3);
  });

  it("addUnit on a new machine: the lock with the application; the unit's number and place with the machine's; the machine, the unit and its application's count with the commit", async () => {
    expect(await roundTrips(() => addUnit(store.db, { model, application: "cache", count: 1 }))).toBe(3);
  });

  it("addUnit of 16 units on new machines asks their numbers and their rows' places in two statements, not four a unit", async () => {
    const one = await statementsSent(() => addUnit(store.db, { model, application: "cache", count: 1 }));
    const sixteen = await statementsSent(() => addUnit(store.db, { model, application: "cache", count: 16 }));
    // Each unit more adds only its row and its machine's.
    expect(sixteen - one).toBe(15 * 2);
  });

  it("addUnit of many units on new machines sends the first reads of 16 units at a time: 50 units in about 6 round trips, not 150", async () => {
    // The lock with the application; four batches of reads (16, 16, 16, 2), each with the inserts of the batch before;
    // the last inserts, the application's count and the change rows with the commit. A batch this size is written in
    // parts (postgres.js hands over 1 KiB at once), and an answer arriving between two parts counts one trip more.
    expect(await roundTrips(() => addUnit(store.db, { model, application: "cache", count: 50 }))).toBeLessThanOrEqual(10);
  });

  it("addMachine: the lock as last committed, with the machine's number and place; the machine with the commit", async () => {
    expect(await roundTrips(() => addMachine(store.db, { model }))).toBe(2);
  });

  it("setConstraints on the model this process last wrote: the lock, the write and the commit in one trip", async () => {
    for (let n = 0; n < 20; n++) await setConstraints(store.db, { model, constraints: `cores=${n}` }); // its statements prepared on every connection
    expect(await roundTrips(() => setConstraints(store.db, { model, constraints: "cores=3" }))).toBe(1);
  });

  it("setConstraints on the model this process last wrote, alone in its turn: one statement, no BEGIN nor COMMIT around it (row-rewrite.ts)", async () => {
    await setConstraints(store.db, { model, constraints: "cores=2" });
    expect(await statementsSent(() => setConstraints(store.db, { model, constraints: "cores=3" }))).toBe(1);
  });

  it("a compaction of the model's log does not move the row its next write expects: setConstraints still one trip", async () => {
    const compacted = uniqueName("compacted");
    await addModel(store.db, { name: compacted });
    for (let n = 0; n < 20; n++) await setConstraints(store.db, { model: compacted, constraints: `cores=${n}` });
    const [row] = await store.db.select().from(models).where(eq(models.name, compacted));
    const floor = await compactModel(store.db, row!.id, { keepRevisions: 1, minAgeMs: 0, batch: 10_000 });
    expect(floor).toBeGreaterThan(row!.compactedThrough);
    expect(await roundTrips(() => setConstraints(store.db, { model: compacted, constraints: "cores=3" }))).toBe(1);
  });

  it("removeUnit: the lock with the unit, its subordinates and its machine if unprovisioned; the Dying write with the commit", async () => {
    const unit = await newUnit();
    expect(await roundTrips(() => removeUnits(store.db, { model, targets: [unit] }))).toBe(2);
  });

  it("setUnitDead: the lock with the unit and what holds it; the Dead write with the commit", async () => {
    const unit = await newUnit();
    await removeUnits(store.db, { model, targets: [unit] });
    expect(await roundTrips(() => setUnitDead(store.db, { model, unit }))).toBe(2);
  });

  it("removeDeadUnit: the lock with the unit, whether it has hook runs and its application's counts; its runs, its row, its credentials and its application's count with the commit", async () => {
    const unit = await newUnit();
    await recordMissingHooks(store.db, { model, unit, hooks: [{ hook: "update-status" }] });
    await removeUnits(store.db, { model, targets: [unit] });
    await setUnitDead(store.db, { model, unit });
    expect(await roundTrips(() => removeDeadUnit(store.db, { model, unit }))).toBe(2);
  });

  it("issueUnitCredentials: the lock with the unit and its agent's start-up (state, scopes, charm); the old secret's delete and the new one's insert with the commit", async () => {
    const unit = await newUnit();
    expect(await roundTrips(() => issueUnitCredentials(store.db, { model, unit }))).toBe(2);
  });

  it("beginHook: the lock with the unit, its charm, its running runs and the new run's id; the interrupted runs, the new run, the prune and the agent's status with the commit", async () => {
    const unit = await newUnit();
    await beginHook(store.db, { model, unit, hook: "install" });
    // The unit's agent restarted mid-hook: the run it began is ended interrupted.
    expect(await roundTrips(() => beginHook(store.db, { model, unit, hook: "install" }))).toBe(2);
  });

  it("recordMissingHooks: the lock with the unit, its charm, its running runs, the transaction's time and the relations the hooks name; the agent's status and state with the commit", async () => {
    const unit = await newUnit();
    await enterScope(store.db, { model, relation, unit, privateAddress: "10.0.0.3" });
    const hooks = [{ hook: "cache-relation-changed", relation, remoteUnit: "web/0" }, { hook: "update-status" }];
    expect(await roundTrips(() => recordMissingHooks(store.db, { model, unit, hooks, state: { passed: 2 } }))).toBe(2);
  });

  it("a hook call on a unit whose charm this process has read does not read it again: a unit's charm never changes (unit-charms.ts)", async () => {
    const hooks = [{ hook: "update-status" }];
    // Two units whose agents are idle: the first's charm read by a hook call, the second's never.
    const [known, unknown] = [await newUnit(), await newUnit()];
    await recordMissingHooks(store.db, { model, unit: known, hooks });
    await setUnitAgentStatus(store.db, { model, unit: unknown, status: UnitAgentStatus.Idle });
    const reading = await statementsSent(() => recordMissingHooks(store.db, { model, unit: unknown, hooks }));
    expect(await statementsSent(() => recordMissingHooks(store.db, { model, unit: known, hooks }))).toBe(reading - 1);
    // Read once: the second unit's next call does not read it either; still the lock's round trip and the commit's.
    expect(await statementsSent(() => recordMissingHooks(store.db, { model, unit: unknown, hooks }))).toBe(reading - 1);
    expect(await roundTrips(() => recordMissingHooks(store.db, { model, unit: unknown, hooks }))).toBe(2);
  });

  it("a unit whose credentials this process issued has its charm known for its hook calls: its agent's start-up read it", async () => {
    const hooks = [{ hook: "update-status" }];
    const [started, unknown] = [await newUnit(), await newUnit()];
    await issueUnitCredentials(store.db, { model, unit: started });
    for (const unit of [started, unknown]) await setUnitAgentStatus(store.db, { model, unit, status: UnitAgentStatus.Idle });
    const reading = await statementsSent(() => recordMissingHooks(store.db, { model, unit: unknown, hooks }));
    expect(await statementsSent(() => recordMissingHooks(store.db, { model, unit: started, hooks }))).toBe(reading - 1);
  });

  it("recordMissingHooks with a -broken: its membership and relation with the lock too; leaving the scope with the commit", async () => {
    const [first, unit] = [await newUnit(), await newUnit()];
    for (const u of [first, unit]) await enterScope(store.db, { model, relation, unit: u, privateAddress: "10.0.0.4" });
    const hooks = [{ hook: "cache-relation-broken", relation }];
    // The first describes the statements this process had not sent yet (a round trip each, once): the second is as every later one.
    await recordMissingHooks(store.db, { model, unit: first, hooks });
    expect(await roundTrips(() => recordMissingHooks(store.db, { model, unit, hooks }))).toBe(2);
  });

  it("recordUnitsMissingHooks of units leaving a Dying relation: their memberships in one statement, the relation's count in one, however many units", async () => {
    await deploy(store.db, { model, charm: "wordpress", application: "blog", numUnits: 0 });
    const dying = (await integrate(store.db, { model, endpoints: ["blog", "cache"] })).id;
    const members: string[] = [];
    for (let n = 0; n < 10; n++) members.push(await newUnit());
    await enterScopes(store.db, { model, relation: dying, units: members.map((unit) => ({ unit, privateAddress: "10.0.0.5" })) });
    await removeRelations(store.db, { model, targets: [String(dying)] }); // Dying: ten units in its scope
    const broken = (units: readonly string[]) => () =>
      recordUnitsMissingHooks(store.db, {
        model,
        units: units.map((unit) => ({ unit, hooks: [{ hook: "cache-relation-broken", relation: dying }] })),
      });
    await broken(members.slice(0, 1))(); // describes the statements this process had not sent yet
    // One leaving the scope a statement each was two statements a unit more.
    const two = await statementsSent(broken(members.slice(1, 3)));
    expect(await statementsSent(broken(members.slice(3, 9)))).toBe(two);
  });

  it("commitHook: the lock with the unit, the run and the time it ends at; the run's end and the agent's status with the commit", async () => {
    const unit = await newUnit();
    const run = await beginHook(store.db, { model, unit, hook: "install" });
    expect(await roundTrips(() => commitHook(store.db, { model, unit, run: String(run.id), result: "succeeded" }))).toBe(2);
  });

  it("setWorkloadStatus: the lock with the unit; the status with the commit", async () => {
    const unit = await newUnit();
    expect(await roundTrips(() => setWorkloadStatus(store.db, { model, unit, status: "active", message: "ready" }))).toBe(2);
  });

  it("enterScope: the lock with the relation, the unit, its membership, the endpoints and its settings' version; the membership, its settings and the count with the commit", async () => {
    const unit = await newUnit();
    expect(await roundTrips(() => enterScope(store.db, { model, relation, unit, privateAddress: "10.0.0.2" }))).toBe(2);
  });

  it("leaveScope: the lock with the relation, the unit and its membership; the membership's delete and the count with the commit", async () => {
    const unit = await newUnit();
    await enterScope(store.db, { model, relation, unit, privateAddress: "10.0.0.3" });
    expect(await roundTrips(() => leaveScope(store.db, { model, relation, unit }))).toBe(2);
  });

  it("the machine agent and the provisioner: the lock with the machine (and, for Dead, what occupies it); the write with the commit", async () => {
    const id = (await addMachine(store.db, { model })).id;
    expect(await roundTrips(() => setMachineProvisioned(store.db, { model, machine: id, instanceId: `i-${id}` }))).toBe(2);
    expect(await roundTrips(() => setMachineStatus(store.db, { model, machine: id, status: "started" }))).toBe(2);
    expect(await roundTrips(() => setMachineDead(store.db, { model, machine: id }))).toBe(2);
    expect(await roundTrips(() => removeDeadMachine(store.db, { model, machine: id }))).toBe(2);
  });

  it("the provisioner's bulk calls read and write their machines in one statement each, however many they name", async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await addMachine(store.db, { model })).id);
    const issue = (machines: string[]) => () => issueMachinesCredentials(store.db, { model, machines });
    const provision = (machines: string[]) => () =>
      setMachinesProvisioned(store.db, { model, machines: machines.map((machine) => ({ machine, instanceId: `i-bulk-${machine}` })) });
    await issue(ids.slice(3, 4))(); // each statement's first run on the connection describes it first
    await provision(ids.slice(3, 4))();
    // BEGIN, the lock, the machines; their old secrets' delete and their new ones' insert; COMMIT.
    expect(await statementsSent(issue(ids.slice(0, 1)))).toBe(3 + 2 + 1);
    expect(await statementsSent(issue(ids.slice(0, 3)))).toBe(3 + 2 + 1);
    // BEGIN, the lock, the machines; their instances; the change rows with the COMMIT.
    const one = await statementsSent(provision(ids.slice(0, 1)));
    expect(await statementsSent(provision(ids.slice(4, 6)))).toBe(one);
  });

  it("a group (writers that queued behind one another): each writer's deferred write travels with the next one's savepoint and lock", async () => {
    const constraints = (text: string) => setConstraints(store.db, { model, application: "cache", constraints: text });
    // The first runs alone (2). The three that queued behind it share the next transaction: BEGIN with the lock and the
    // first one's read; its write with the second one's read; the second's with the third's; the third's with the
    // change rows and the COMMIT (4, where waiting for each writer's write took 6, and for every answer before the
    // COMMIT 5).
    expect(await roundTrips(() => Promise.all(["cores=1", "cores=2", "cores=3", "cores=4"].map(constraints)))).toBe(6);
  });

  it("a group's writers after the first send only their own reads and writes: the model's row comes from the lock their transaction holds, and no savepoint when none is refused", async () => {
    const constraints = (text: string) => setConstraints(store.db, { model, application: "cache", constraints: text });
    // Alone: BEGIN, the lock, the application, its update, the change rows, COMMIT.
    expect(await statementsSent(() => constraints("cores=1"))).toBe(6);
    // The first alone (6); the four behind it in one transaction: BEGIN, the lock once, each one's application and
    // update (4 × 2), the change rows and COMMIT.
    expect(await statementsSent(() => Promise.all(["cores=2", "cores=3", "cores=4", "cores=5", "cores=6"].map(constraints)))).toBe(
      6 + 1 + 1 + 4 * 2 + 2,
    );
  });

  it("a group's writers whose footprints cannot meet run side by side: their reads travel together, then their writes with the COMMIT", async () => {
    const machines: string[] = [];
    // Four, so that no trip's statements reach 1 KiB: postgres.js writes such a batch in parts, and an answer to the
    // first part arriving before the last is written would count as a trip of its own.
    for (let n = 0; n < 4; n++) machines.push((await addMachine(store.db, { model })).id);
    const started = (id: string) => setMachineStatus(store.db, { model, machine: id, status: "started" });
    await new Promise((resolve) => setImmediate(resolve)); // the last addMachine's turn is over: the first runs alone
    // The first runs alone (2). The three behind it, side by side, take what one takes alone: BEGIN, the lock (sent by
    // the first of them) and their machines; their writes with the change rows and the COMMIT. One after another,
    // each would take a round trip of its own (2 + 4).
    expect(await roundTrips(() => Promise.all(machines.map(started)))).toBe(2 + 2);
  });

  it("removeDeadUnits beside each other, of a Dying application they do not empty: one statement a call for its count, however many units", async () => {
    await deploy(store.db, { model, charm: "memcached", application: "queue", numUnits: 0 });
    const units = (await addUnit(store.db, { model, application: "queue", count: 20, placement: Array(20).fill(machine) })).map(
      (u) => u.name,
    );
    await removeUnits(store.db, { model, targets: units });
    await setUnitsDead(store.db, { model, units });
    await removeApplications(store.db, { model, targets: ["queue"] }); // Dying, held by its twenty units
    /** A call alone (its turn's first), then two side by side behind it, of `n` units each. */
    const group = (first: string, n: number, from: number) => async () => {
      const alone = removeDeadUnits(store.db, { model, units: [first] });
      await Promise.all([
        alone,
        removeDeadUnits(store.db, { model, units: units.slice(from, from + n) }),
        removeDeadUnits(store.db, { model, units: units.slice(from + n, from + 2 * n) }),
      ]);
    };
    await new Promise((resolve) => setImmediate(resolve)); // the last turn is over: the first runs alone
    await group(units[0]!, 1, 1)(); // describes the statements this process had not sent yet
    await new Promise((resolve) => setImmediate(resolve));
    const twoEach = await statementsSent(group(units[3]!, 2, 4));
    await new Promise((resolve) => setImmediate(resolve));
    // Beside others each unit's release was a statement of its own: four more here. Three units keep it held.
    expect(await statementsSent(group(units[8]!, 4, 9))).toBe(twoEach);
  });

  it("a writer of a group refused before it wrote costs the group nothing: no savepoint, no rollback", async () => {
    const constraints = (application: string, text: string) => setConstraints(store.db, { model, application, constraints: text });
    const group = () =>
      Promise.allSettled([
        constraints("cache", "cores=1"), // alone: 6
        constraints("cache", "cores=2"),
        constraints("no-such-application", "cores=3"), // its read finds nothing: NOT_FOUND
        constraints("cache", "cores=4"),
      ]);
    // BEGIN, the lock, the first one's application and update, the refused one's read, the third's application and
    // update, the change rows and COMMIT.
    expect(await statementsSent(group)).toBe(6 + 1 + 1 + 2 + 1 + 2 + 2);
  });

  describe("an agent's stream starting: its snapshot, in a read-only transaction", () => {
    let feed: ChangeFeed;
    let modelId: string;
    const streams: ChangeStream[] = [];
    beforeAll(async () => {
      // Not started: with no LISTEN and no timer, nothing but the stream being opened reads (a commit's notification
      // would have its tail read the new rows on the same connection).
      feed = new ChangeFeed(store);
      [{ id: modelId }] = (await store.db.select({ id: models.id }).from(models).where(eq(models.name, model))) as [{ id: string }];
      streams.push(await feed.open({ modelId, watcher: modelChanges({ kinds: ["model"] }) })); // the model's tail, read once
      // Each kind of stream once, so that its statements are prepared on the connection.
      streams.push(await feed.open({ modelId, watcher: unitLife(await newUnit()) }));
      streams.push(await feed.open({ modelId, watcher: machineLife((await addMachine(store.db, { model })).id) }));
      // A web unit in the relation's scope, with its settings: what a cache unit's relation stream starts with.
      const [web] = await addUnit(store.db, { model, application: "web", count: 1, placement: [machine] });
      await enterScope(store.db, { model, relation, unit: web!.name, privateAddress: "10.0.0.9" });
      const member = await newUnit();
      await enterScope(store.db, { model, relation, unit: member, privateAddress: "10.0.0.8" });
      streams.push(await feed.open({ modelId, watcher: relationUnits(relation, member) }));
      streams.push(await feed.open({ modelId, watcher: relationMembers(member) }));
      streams.push(await feed.open({ modelId, watcher: applicationRelations("web") }));
      streams.push(await feed.open({ modelId, watcher: machineUnits((await addMachine(store.db, { model })).id) }));
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await feed.stop();
    });
    const opening = (watcher: Watcher) => roundTrips(async () => streams.push(await feed.open({ modelId, watcher })));

    it("unitLife: BEGIN with the log's window, the application and the unit, and the COMMIT, all sent together", async () => {
      expect(await opening(unitLife(await newUnit()))).toBe(1);
    });

    it("machineLife: BEGIN with the log's window, the machine and its containers' rows, and the COMMIT", async () => {
      expect(await opening(machineLife(machine))).toBe(1);
    });

    it("applicationRelations: BEGIN with the log's window, the application's relations and their endpoints, and the COMMIT", async () => {
      expect(await opening(applicationRelations("cache"))).toBe(1);
    });

    it("machineUnits: BEGIN with the log's window, the machine's units and their subordinates, and the COMMIT", async () => {
      expect(await opening(machineUnits(machine))).toBe(1);
    });

    it("changes of one kind: BEGIN with the log's window, the kind's rows, and the COMMIT", async () => {
      expect(await opening(modelChanges({ kinds: ["model"] }))).toBe(1);
    });

    it("relationUnits: BEGIN with the log's window, the relation, its endpoints and the unit; the counterpart members with their settings, and the COMMIT", async () => {
      const unit = await newUnit();
      await enterScope(store.db, { model, relation, unit, privateAddress: "10.0.0.7" });
      expect(await opening(relationUnits(relation, unit))).toBe(2);
    });

    it("unitAgent: BEGIN with the log's window, the unit, its application, its relations and its endpoints; each relation's counterpart members with their settings, and the COMMIT", async () => {
      const unit = await newUnit();
      await enterScope(store.db, { model, relation, unit, privateAddress: "10.0.0.6" });
      expect(await opening(together(unitLife(unit), applicationRelations("cache"), relationMembers(unit)))).toBe(2);
    });

    it("streams opened together read their snapshots in one transaction: one BEGIN, their reads, one COMMIT", async () => {
      const [a, b] = [await newUnit(), await newUnit()];
      const openAll = () =>
        Promise.all(
          [unitLife(a), unitLife(b), machineLife(machine), applicationRelations("cache")].map(async (watcher) =>
            streams.push(await feed.open({ modelId, watcher })),
          ),
        );
      expect(await roundTrips(openAll)).toBe(1); // on one connection: four transactions would take four
    });

    const openTogether =
      (...watchers: Watcher[]) =>
      () =>
        Promise.all(watchers.map(async (watcher) => streams.push(await feed.open({ modelId, watcher }))));

    it("streams of one model opened together read its log's window once, and a read they share once: a second unit's stream adds only its unit's row", async () => {
      const [a, b, c] = [await newUnit(), await newUnit(), await newUnit()];
      // One alone: BEGIN, the window, its application, its unit, COMMIT.
      expect(await statementsSent(openTogether(unitLife(a)))).toBe(5);
      expect(await statementsSent(openTogether(unitLife(b), unitLife(c)))).toBe(6);
    });

    it("unit agents of one application opening their streams together read what their snapshots share once: a second agent's stream adds only its unit's row", async () => {
      const [a, b, c] = [await newUnit(), await newUnit(), await newUnit()];
      const agentStream = (unit: string) => together(unitLife(unit), applicationRelations("cache"), relationMembers(unit));
      const one = await statementsSent(openTogether(agentStream(a)));
      const two = await statementsSent(openTogether(agentStream(b), agentStream(c)));
      // The application, its relations, their endpoints and each relation's counterpart members are the same for both.
      expect(two - one).toBe(1);
    });

    it("with relationUnits among them, the COMMIT waits for its second reads: two round trips for all", async () => {
      const unit = await newUnit();
      await enterScope(store.db, { model, relation, unit, privateAddress: "10.0.0.6" });
      const openAll = () =>
        Promise.all(
          [relationUnits(relation, unit), unitLife(unit), machineLife(machine)].map(async (watcher) =>
            streams.push(await feed.open({ modelId, watcher })),
          ),
        );
      expect(await roundTrips(openAll)).toBe(2);
    });

    it("the reads a snapshot marks last still run inside it: its COMMIT is sent behind them", async () => {
      // Drizzle hands a query to the connection a few promise jobs after the call; a COMMIT handed over sooner would
      // run them outside the snapshot, where the session's own isolation shows.
      const level = sql<string>`current_setting('transaction_isolation')`;
      const levels = await inSnapshot(store.db, async (tx, last) => {
        const first = await tx.select({ level }).from(models).limit(1);
        const [built, prepared] = await last(Promise.all([tx.select({ level }).from(models).limit(1), isolationOf(tx, {})]));
        return [first[0]?.level, built[0]?.level, prepared[0]?.level];
      });
      expect(levels).toEqual(["repeatable read", "repeatable read", "repeatable read"]);
    });
  });
});

describe.skipIf(!onPostgres)("a transaction's connection that fills up (the driver, PostgreSQL only)", () => {
  let client: postgres.Sql;
  beforeAll(async () => {
    client = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await client.unsafe("select $1::int as i", [0], { prepare: true }); // prepared on the connection: sent at once
  });
  afterAll(async () => {
    await client?.end();
  });

  it("sends what queued behind a statement described first together once it is answered, not one a round trip", async () => {
    // A statement new to the connection is described before it runs (Parse, Describe, then its answer before Bind):
    // the connection takes nothing more until then, and the statements sent meanwhile queue. They went one a round trip.
    const reserved = await client.reserve();
    try {
      const fresh = `select $1::int + ${Date.now() % 100_000} as i`;
      const trips = await roundTrips(() =>
        Promise.all([
          reserved.unsafe(fresh, [1], { prepare: true }),
          ...Array.from({ length: 20 }, (_, i) => reserved.unsafe("select $1::int as i", [i], { prepare: true })),
        ]),
      );
      expect(trips).toBeLessThanOrEqual(3);
    } finally {
      reserved.release();
    }
  });
});
