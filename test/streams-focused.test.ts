// Specification of the focused streams agents watch, served from the same change log
// as `changes`. Writes go through the real mutations (deploy, integrate, enterScope,
// removeUnit, ...), as agents will make them.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { settingsWritten } from "../src/changes/change.js";
import { relationSettings } from "../src/db/schema.js";
import { transact } from "../src/model/index.js";
import { provisionMachines } from "./support/fixtures.js";
import { EVENT_FIELDS, type Subscription, subscribe, useLiveServer } from "./support/streams.js";

const live = useLiveServer({ bookmarkIntervalMs: 200 });

const DEPLOY = `mutation ($model: String!, $charm: String!, $n: Int) { deploy(input: { model: $model, charm: $charm, numUnits: $n }) { name } }`;
const ADD_UNIT = `mutation ($model: String!, $app: String!, $to: [String!]) { addUnit(input: { model: $model, application: $app, placement: $to }) { name machine { id } } }`;
const INTEGRATE = `mutation ($model: String!, $a: String!, $b: String!) { integrate(input: { model: $model, endpoints: [$a, $b] }) { id key } }`;
const ENTER = `mutation ($model: String!, $relation: Int!, $unit: String!) { enterScope(input: { model: $model, relation: $relation, unit: $unit, privateAddress: "10.0.0.1" }) { member { role } } }`;
const LEAVE = `mutation ($model: String!, $relation: Int!, $unit: String!) { leaveScope(input: { model: $model, relation: $relation, unit: $unit }) { relationRemoved } }`;
const REMOVE_UNIT = `mutation ($model: String!, $units: [String!]!) { removeUnit(input: { model: $model, units: $units }) { id outcome } }`;
const REMOVE_APP = `mutation ($model: String!, $apps: [String!]!) { removeApplication(input: { model: $model, applications: $apps }) { id outcome } }`;
const REVISION = `query ($m: String!) { model(name: $m) { revision } }`;

const stream = (field: string, args: string, variables: Record<string, unknown>) =>
  subscribe(live.url, `subscription (${args}) { ${field}(${argList(args)}) { ${EVENT_FIELDS} } }`, variables);
const argList = (args: string) =>
  args
    .split(",")
    .map((a) => a.trim().split(":")[0]!.slice(1))
    .map((name) => `${name}: $${name}`)
    .join(", ");

const seen = (s: Subscription, type = "CHANGE") =>
  s.events.filter((e) => e.type === type).map((e) => `${e.kind} ${e.entity}${e.removed ? " removed" : ""}${e.life ? ` ${e.life}` : ""}`);

/** Waits until the stream has processed the model's current revision (a bookmark says so), so absences are meaningful. */
async function caughtUp(s: Subscription, model: string) {
  const { model: m } = await live.ok(REVISION, { m: model });
  await s.until((x) => x.events.some((e) => e.type === "BOOKMARK" && Number(e.revision) >= Number(m.revision)));
}

async function scene() {
  const model = await live.newModel();
  const m = model.name;
  await live.ok(DEPLOY, { model: m, charm: "wordpress", n: 2 }); // wordpress/0 on 1, wordpress/1 on 2
  await live.ok(DEPLOY, { model: m, charm: "mysql", n: 2 }); // mysql/0 on 3, mysql/1 on 4
  await live.ok(DEPLOY, { model: m, charm: "logging", n: 0 });
  const db = (await live.ok(INTEGRATE, { model: m, a: "wordpress", b: "mysql" })).integrate.id as number;
  const info = (await live.ok(INTEGRATE, { model: m, a: "logging", b: "wordpress" })).integrate.id as number;
  await provisionMachines(live, m); // as the provisioner would: units on unprovisioned machines are removed at once (seed 004)
  return { model, m, db, info };
}

// Short bookmark interval: `caughtUp` waits for one instead of sleeping.
describe("machineUnits", () => {
  it("holds the machine's principals and their subordinates, and no other unit", async () => {
    const { m, info } = await scene();
    const s = stream("machineUnits", "$model: String!, $machine: String!", { model: m, machine: "1" });
    await s.synced();
    expect(seen(s, "STATE")).toEqual(["UNIT wordpress/0 ALIVE"]);
    await live.ok(ADD_UNIT, { model: m, app: "mysql", to: ["1"] }); // mysql/2 placed on machine 1
    await live.ok(ADD_UNIT, { model: m, app: "wordpress", to: null }); // elsewhere
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/0" }); // creates logging/0 in wordpress/0's container
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/1" }); // logging/1, on machine 2
    await live.ok(REMOVE_UNIT, { model: m, units: ["mysql/2"] });
    await s.until((x) => seen(x).includes("UNIT mysql/2 DYING"));
    expect(seen(s)).toEqual(["UNIT mysql/2 ALIVE", "UNIT logging/0 ALIVE", "UNIT mysql/2 DYING"]);
  });
});

describe("machineLife", () => {
  const ADD_CONTAINER = `mutation ($model: String!, $parent: String!) { addMachine(input: { model: $model, parent: $parent, containerType: LXD }) { id } }`;
  const REMOVE_MACHINE = `mutation ($model: String!, $machines: [String!]!) { removeMachine(input: { model: $model, machines: $machines, force: true }) { id } }`;

  it("holds the machine's own changes and its containers' (nested too), no other machine's", async () => {
    const { m } = await scene();
    const container = (await live.ok(ADD_CONTAINER, { model: m, parent: "1" })).addMachine.id as string;
    const s = stream("machineLife", "$model: String!, $machine: String!", { model: m, machine: "1" });
    await s.synced();
    expect(seen(s, "STATE")).toEqual(["MACHINE 1 ALIVE", `MACHINE ${container} ALIVE`]);
    const nested = (await live.ok(ADD_CONTAINER, { model: m, parent: container })).addMachine.id as string;
    await live.ok(ADD_CONTAINER, { model: m, parent: "2" }); // another machine's container
    await live.ok(REMOVE_MACHINE, { model: m, machines: ["3"] }); // another machine
    await live.ok(REMOVE_MACHINE, { model: m, machines: ["1"] });
    await s.until((x) => seen(x).includes("MACHINE 1 DYING"));
    await caughtUp(s, m);
    // Only machine 1 and what is nested in it: nothing of machine 3, nor of machine 2's container.
    expect(seen(s).every((e) => /^MACHINE 1( |\/)/.test(e))).toBe(true);
    expect(seen(s)).toContain(`MACHINE ${nested} ALIVE`);
  });

  it("opens with the machine and every container nested in it, at any depth, and nothing of another machine", async () => {
    const { m } = await scene();
    const container = (await live.ok(ADD_CONTAINER, { model: m, parent: "1" })).addMachine.id as string;
    const nested = (await live.ok(ADD_CONTAINER, { model: m, parent: container })).addMachine.id as string;
    const beside = (await live.ok(ADD_CONTAINER, { model: m, parent: "2" })).addMachine.id as string;
    const s = stream("machineLife", "$model: String!, $machine: String!", { model: m, machine: "1" });
    await s.synced();
    expect(seen(s, "STATE")).toEqual(["MACHINE 1 ALIVE", `MACHINE ${container} ALIVE`, `MACHINE ${nested} ALIVE`]);
    expect(seen(s, "STATE")).not.toContain(`MACHINE ${beside} ALIVE`);
  });

  it("refuses a machine that does not exist", async () => {
    const { m } = await scene();
    const s = stream("machineLife", "$model: String!, $machine: String!", { model: m, machine: "99" });
    await s.until((x) => x.errors !== null);
    expect(s.errors!.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND"]);
  });
});

describe("machineAgent", () => {
  const REMOVE_MACHINE = `mutation ($model: String!, $machines: [String!]!) { removeMachine(input: { model: $model, machines: $machines, force: true }) { id } }`;

  it("is machineLife and machineUnits in one stream: one snapshot of both, then the changes of both, nothing else", async () => {
    const { m, info } = await scene();
    const s = stream("machineAgent", "$model: String!, $machine: String!", { model: m, machine: "1" });
    await s.synced();
    expect(seen(s, "STATE")).toEqual(["MACHINE 1 ALIVE", "UNIT wordpress/0 ALIVE"]);
    expect(s.events.filter((e) => e.type === "BOOKMARK")).toHaveLength(1);
    await live.ok(ADD_UNIT, { model: m, app: "mysql", to: ["1"] }); // mysql/2 placed on machine 1: learned as it goes
    await live.ok(ADD_UNIT, { model: m, app: "wordpress", to: null }); // elsewhere
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/0" }); // logging/0, wordpress/0's subordinate
    await live.ok(REMOVE_UNIT, { model: m, units: ["mysql/2"] });
    await live.ok(REMOVE_MACHINE, { model: m, machines: ["3"] }); // another machine
    await live.ok(REMOVE_MACHINE, { model: m, machines: ["1"] });
    await s.until((x) => seen(x).includes("MACHINE 1 DYING"));
    await caughtUp(s, m);
    expect(seen(s).slice(0, 4)).toEqual(["UNIT mysql/2 ALIVE", "UNIT logging/0 ALIVE", "UNIT mysql/2 DYING", "MACHINE 1 DYING"]);
    // Then the forced removal takes machine 1's units with it: still only machine 1 and what is on it.
    expect(seen(s).filter((e) => !/^(MACHINE 1|UNIT (wordpress\/0|logging\/0|mysql\/2)) /.test(e))).toEqual([]);
  });

  it("resumed after the machine was removed, replays its removal rather than refusing", async () => {
    const { m } = await scene();
    const first = stream("machineAgent", "$model: String!, $machine: String!", { model: m, machine: "3" });
    await first.synced();
    const last = first.events.at(-1)!.revision;
    await first.close();
    await live.ok(REMOVE_MACHINE, { model: m, machines: ["3"] });
    await live.ok(`mutation ($m: String!) { runCleanups(model: $m) { remaining } }`, { m }); // the forced removal's cleanup
    await live.ok(`mutation ($m: String!) { removeDeadMachine(input: { model: $m, machine: "3" }) }`, { m }); // as its provisioner would
    const resumed = stream("machineAgent", "$model: String!, $machine: String!, $since: String", { model: m, machine: "3", since: last });
    await resumed.until((x) => seen(x).includes("MACHINE 3 removed DEAD") || x.errors !== null);
    expect(resumed.errors).toBeNull();
    expect(seen(resumed)).toEqual(["MACHINE 3 DYING", "UNIT mysql/0 removed DEAD", "MACHINE 3 DEAD", "MACHINE 3 removed DEAD"]);
  });

  it("refuses a machine that does not exist, as machineLife does", async () => {
    const { m } = await scene();
    const s = stream("machineAgent", "$model: String!, $machine: String!", { model: m, machine: "99" });
    await s.until((x) => x.errors !== null);
    expect(s.errors!.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND"]);
  });
});

describe("unitAgent", () => {
  it("is unitLife and applicationRelations in one stream (with relationMembers): one snapshot of both, then the changes of both, nothing else", async () => {
    const { m, db, info } = await scene();
    const s = stream("unitAgent", "$model: String!, $unit: String!", { model: m, unit: "wordpress/1" });
    await s.synced();
    // unitLife's part first, then the relations (in no particular order among themselves).
    expect(seen(s, "STATE").slice(0, 2)).toEqual(["APPLICATION wordpress ALIVE", "UNIT wordpress/1 ALIVE"]);
    expect(seen(s, "STATE").slice(2).sort()).toEqual([`RELATION ${db} ALIVE`, `RELATION ${info} ALIVE`].sort());
    await live.ok(REMOVE_UNIT, { model: m, units: ["wordpress/0"] }); // another unit of its application
    await live.ok(INTEGRATE, { model: m, a: "logging", b: "mysql" }); // a relation not its application's
    await live.ok(REMOVE_UNIT, { model: m, units: ["wordpress/1"] });
    await s.until((x) => seen(x).includes("UNIT wordpress/1 DYING"));
    await caughtUp(s, m);
    expect(seen(s)).toEqual(["UNIT wordpress/1 DYING"]);
  });

  it("carries, in every relation of its application, the members relationUnits shows the unit, in scope of it yet or not", async () => {
    const { m, db, info } = await scene();
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/0" });
    const s = stream("unitAgent", "$model: String!, $unit: String!", { model: m, unit: "wordpress/0" });
    await s.synced();
    expect(seen(s, "STATE").filter((e) => /^(SCOPE|SETTINGS)/.test(e))).toEqual([`SCOPE ${db}:mysql/0 ALIVE`, `SETTINGS ${db}:mysql/0`]);
    await live.ok(ENTER, { model: m, relation: db, unit: "wordpress/1" }); // its own role: not seen
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/1" });
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/0" }); // creates logging/0 beside it
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/1" }); // creates logging/1 beside wordpress/1
    await live.ok(ENTER, { model: m, relation: info, unit: "logging/1" }); // another container: not seen
    await live.ok(ENTER, { model: m, relation: info, unit: "logging/0" });
    // A relation made while the stream is open: its members are followed from its first.
    await live.ok(DEPLOY, { model: m, charm: "memcached", n: 1 });
    const cache = (await live.ok(INTEGRATE, { model: m, a: "wordpress", b: "memcached" })).integrate.id as number;
    await provisionMachines(live, m);
    await live.ok(ENTER, { model: m, relation: cache, unit: "memcached/0" });
    await live.ok(LEAVE, { model: m, relation: db, unit: "mysql/1" });
    await s.until((x) => seen(x).includes(`SCOPE ${db}:mysql/1 removed`));
    await caughtUp(s, m);
    expect(seen(s).filter((e) => /^(SCOPE|SETTINGS)/.test(e))).toEqual([
      `SCOPE ${db}:mysql/1 ALIVE`,
      `SETTINGS ${db}:mysql/1`,
      `SCOPE ${info}:logging/0 ALIVE`,
      `SETTINGS ${info}:logging/0`,
      `SCOPE ${cache}:memcached/0 ALIVE`,
      `SETTINGS ${cache}:memcached/0`,
      `SCOPE ${db}:mysql/1 removed`,
    ]);
  });

  it("resumed with since, follows the members its snapshot would have: exactly their changes after that revision", async () => {
    const { m, db } = await scene();
    const first = stream("unitAgent", "$model: String!, $unit: String!", { model: m, unit: "wordpress/0" });
    await first.synced();
    const last = first.events.at(-1)!.revision;
    await first.close();
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/0" });
    await live.ok(ENTER, { model: m, relation: db, unit: "wordpress/1" });
    const resumed = stream("unitAgent", "$model: String!, $unit: String!, $since: String", { model: m, unit: "wordpress/0", since: last });
    await resumed.until((x) => seen(x).includes(`SETTINGS ${db}:mysql/0`));
    await caughtUp(resumed, m);
    expect(seen(resumed)).toEqual([`SCOPE ${db}:mysql/0 ALIVE`, `SETTINGS ${db}:mysql/0`]);
  });

  it("refuses an invalid unit name (INVALID_ID) and a unit that does not exist (NOT_FOUND)", async () => {
    const { m } = await scene();
    for (const [unit, code] of [
      ["wordpress", "INVALID_ID"],
      ["wordpress/9", "NOT_FOUND"],
    ]) {
      const s = stream("unitAgent", "$model: String!, $unit: String!", { model: m, unit });
      await s.until((x) => x.errors !== null);
      expect(s.errors!.map((e) => e.extensions?.code)).toEqual([code]);
    }
  });
});

describe("unitLife", () => {
  it("holds the unit's own life and its application's, nothing else", async () => {
    const { m } = await scene();
    const s = stream("unitLife", "$model: String!, $unit: String!", { model: m, unit: "mysql/1" });
    await s.synced();
    expect(seen(s, "STATE")).toEqual(["APPLICATION mysql ALIVE", "UNIT mysql/1 ALIVE"]);
    await live.ok(REMOVE_UNIT, { model: m, units: ["mysql/0"] });
    await live.ok(REMOVE_APP, { model: m, apps: ["mysql"] });
    await live.ok(`mutation ($m: String!) { runCleanups(model: $m) { remaining } }`, { m }); // the cleaner fans Dying out to the units
    await s.until((x) => seen(x).includes("UNIT mysql/1 DYING"));
    expect(seen(s)).toContain("APPLICATION mysql DYING");
    expect(seen(s).filter((e) => e.includes("mysql/0"))).toEqual([]);
  });

  it("resumed after the unit was removed, replays its removal rather than refusing", async () => {
    const { m } = await scene();
    const first = stream("unitLife", "$model: String!, $unit: String!", { model: m, unit: "mysql/1" });
    await first.synced();
    const last = first.events.at(-1)!.revision;
    await first.close();
    await live.ok(REMOVE_UNIT, { model: m, units: ["mysql/1"] });
    await live.ok(`mutation ($m: String!) { setUnitDead(input: { model: $m, unit: "mysql/1" }) { name } }`, { m });
    await live.ok(`mutation ($m: String!) { removeDeadUnit(input: { model: $m, unit: "mysql/1" }) }`, { m });
    const resumed = stream("unitLife", "$model: String!, $unit: String!, $since: String", { model: m, unit: "mysql/1", since: last });
    await resumed.until((x) => seen(x).includes("UNIT mysql/1 removed DEAD"));
    expect(seen(resumed)).toEqual(["UNIT mysql/1 DYING", "UNIT mysql/1 DEAD", "UNIT mysql/1 removed DEAD"]);
  });

  it("refuses a unit that does not exist", async () => {
    const { m } = await scene();
    const s = stream("unitLife", "$model: String!, $unit: String!", { model: m, unit: "mysql/9" });
    await s.until((x) => x.errors !== null);
    expect(s.errors!.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND"]);
  });
});

describe("applicationRelations", () => {
  it("holds the relations the application takes part in, from creation to removal", async () => {
    const { m, db } = await scene();
    const s = stream("applicationRelations", "$model: String!, $application: String!", { model: m, application: "mysql" });
    await s.synced();
    // mysql's own peer relation and the db relation with wordpress; not logging's relation with wordpress.
    expect(
      s.events
        .filter((e) => e.type === "STATE")
        .map((e) => e.relation!.key)
        .sort(),
    ).toEqual(["mysql:cluster", "wordpress:db mysql:db"]);
    await live.ok(DEPLOY, { model: m, charm: "rsyslog", n: 0 });
    await live.ok(`mutation ($m: String!) { removeRelation(input: { model: $m, relations: ["${db}"] }) { id outcome } }`, { m });
    await caughtUp(s, m);
    expect(seen(s)).toEqual([`RELATION ${db} removed DEAD`]);
  });
});

describe("relationUnits: a relation as one unit sees it (seed 002)", () => {
  it("a provider sees requirers enter and leave, never other providers nor itself", async () => {
    const { m, db } = await scene();
    const s = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", { model: m, relation: db, unit: "mysql/0" });
    await s.synced();
    for (const unit of ["mysql/0", "mysql/1", "wordpress/0"]) await live.ok(ENTER, { model: m, relation: db, unit });
    await live.ok(LEAVE, { model: m, relation: db, unit: "wordpress/0" });
    await s.until((x) => seen(x).includes(`SCOPE ${db}:wordpress/0 removed`));
    expect(seen(s)).toEqual([`SCOPE ${db}:wordpress/0 ALIVE`, `SETTINGS ${db}:wordpress/0`, `SCOPE ${db}:wordpress/0 removed`]);
  });

  it("a requirer sees providers, and its snapshot holds those already in scope with their settings versions", async () => {
    const { m, db } = await scene();
    for (const unit of ["mysql/0", "wordpress/1"]) await live.ok(ENTER, { model: m, relation: db, unit });
    const s = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", { model: m, relation: db, unit: "wordpress/0" });
    await s.synced();
    expect(seen(s, "STATE")).toEqual([`RELATION ${db} ALIVE`, `SCOPE ${db}:mysql/0 ALIVE`, `SETTINGS ${db}:mysql/0`]);
    expect(s.events.find((e) => e.kind === "SETTINGS")!.settings).toMatchObject({ unitName: "mysql/0", version: 1 });
  });

  it("peers see each other, but not themselves", async () => {
    const { m } = await scene();
    const peer = (await live.ok(`query ($m: String!) { model(name: $m) { relation(key: "mysql:cluster") { id } } }`, { m })).model.relation
      .id;
    const s = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", { model: m, relation: peer, unit: "mysql/1" });
    await s.synced();
    for (const unit of ["mysql/1", "mysql/0"]) await live.ok(ENTER, { model: m, relation: peer, unit });
    await s.until((x) => seen(x).includes(`SETTINGS ${peer}:mysql/0`));
    await caughtUp(s, m);
    expect(seen(s)).toEqual([`SCOPE ${peer}:mysql/0 ALIVE`, `SETTINGS ${peer}:mysql/0`]);
  });

  it("in a container-scoped relation a unit sees only its own container", async () => {
    const { m, info } = await scene();
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/0" }); // creates logging/0 beside it
    await live.ok(ENTER, { model: m, relation: info, unit: "wordpress/1" }); // creates logging/1 beside it
    const s = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", {
      model: m,
      relation: info,
      unit: "wordpress/0",
    });
    await s.synced();
    await live.ok(ENTER, { model: m, relation: info, unit: "logging/1" });
    await live.ok(ENTER, { model: m, relation: info, unit: "logging/0" });
    await s.until((x) => seen(x).includes(`SETTINGS ${info}:logging/0`));
    await caughtUp(s, m);
    expect(seen(s)).toEqual([`SCOPE ${info}:logging/0 ALIVE`, `SETTINGS ${info}:logging/0`]);
  });

  it("carries each settings version of the units in scope, and none of units out of scope", async () => {
    const { model, m, db } = await scene();
    const s = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", { model: m, relation: db, unit: "wordpress/0" });
    await s.synced();
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/0" });
    // No relation-set operation exists yet: write a settings change through the real write path.
    const relationSet = (unit: string) =>
      transact(live.store.db, async (tx) => {
        const [row] = await tx.db
          .update(relationSettings)
          .set({ version: sql`${relationSettings.version} + 1` })
          .where(and(eq(relationSettings.modelId, model.id), eq(relationSettings.relationId, db), eq(relationSettings.unit, unit)))
          .returning();
        tx.record(model.id, settingsWritten(db, unit, row?.version ?? 1));
      });
    await relationSet("mysql/0");
    await relationSet("mysql/1"); // not in scope
    await s.until((x) => x.events.some((e) => e.kind === "SETTINGS" && e.settings!.version === 2));
    await caughtUp(s, m);
    expect(s.changes.filter((e) => e.kind === "SETTINGS").map((e) => [e.settings!.unitName, e.settings!.version])).toEqual([
      ["mysql/0", 1],
      ["mysql/0", 2],
    ]);
  });

  it("a unit that leaves and enters again writes its settings a version on: the stream carries the version the table holds", async () => {
    const { model, m, db } = await scene();
    const s = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", { model: m, relation: db, unit: "wordpress/0" });
    await s.synced();
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/0" });
    await live.ok(LEAVE, { model: m, relation: db, unit: "mysql/0" });
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/0" });
    await s.until((x) => x.events.some((e) => e.kind === "SETTINGS" && e.settings!.version === 2));
    await caughtUp(s, m);
    expect(s.changes.filter((e) => e.kind === "SETTINGS").map((e) => [e.settings!.unitName, e.settings!.version])).toEqual([
      ["mysql/0", 1],
      ["mysql/0", 2],
    ]);
    const [stored] = await live.store.db
      .select({ version: relationSettings.version })
      .from(relationSettings)
      .where(and(eq(relationSettings.modelId, model.id), eq(relationSettings.relationId, db), eq(relationSettings.unit, "mysql/0")));
    expect(stored?.version).toBe(2);
  });

  it("resumed after the relation was removed, replays the removal rather than refusing", async () => {
    const { m, db } = await scene();
    const first = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", {
      model: m,
      relation: db,
      unit: "wordpress/0",
    });
    await first.synced();
    const last = first.events.at(-1)!.revision;
    await first.close();
    await live.ok(`mutation ($m: String!) { removeRelation(input: { model: $m, relations: ["${db}"] }) { outcome } }`, { m });
    const resumed = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!, $since: String", {
      model: m,
      relation: db,
      unit: "wordpress/0",
      since: last,
    });
    await resumed.until((x) => seen(x).length > 0);
    expect(seen(resumed)).toEqual([`RELATION ${db} removed DEAD`]);
  });

  it("resumes with since: exactly its own changes after that revision", async () => {
    const { m, db } = await scene();
    const first = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!", {
      model: m,
      relation: db,
      unit: "wordpress/0",
    });
    await first.synced();
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/0" });
    await first.until((x) => seen(x).includes(`SETTINGS ${db}:mysql/0`));
    const last = first.events.at(-1)!.revision;
    await first.close();
    await live.ok(ENTER, { model: m, relation: db, unit: "wordpress/1" });
    await live.ok(ENTER, { model: m, relation: db, unit: "mysql/1" });
    await live.ok(LEAVE, { model: m, relation: db, unit: "mysql/0" });
    const resumed = stream("relationUnits", "$model: String!, $relation: Int!, $unit: String!, $since: String", {
      model: m,
      relation: db,
      unit: "wordpress/0",
      since: last,
    });
    await resumed.until((x) => seen(x).includes(`SCOPE ${db}:mysql/0 removed`));
    expect(seen(resumed)).toEqual([`SCOPE ${db}:mysql/1 ALIVE`, `SETTINGS ${db}:mysql/1`, `SCOPE ${db}:mysql/0 removed`]);
    expect(seen(resumed, "STATE")).toEqual([]);
  });
});
