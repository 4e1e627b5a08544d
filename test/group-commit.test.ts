// Group commit (src/model/write/group-commit.ts): the writers of a model that queue while
// another's transaction runs share the next transaction, each behind a savepoint.
// Which transaction wrote a change row is PostgreSQL's own record of it, its `xmin`.
import { and, eq, gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LifelineError } from "../src/core/errors.js";
import { applications, changes, models, relationScopes, relations, sequences, units } from "../src/db/schema.js";
import { sentAhead } from "../src/db/sent-ahead.js";
import { entity, type Footprint, touching } from "../src/model/footprint.js";
import {
  addMachine,
  addModel,
  addUnit,
  deploy,
  destroyModel,
  enterScope,
  integrate,
  leaveScope,
  recordUnitsMissingHooks,
  removeApplications,
  removeDeadUnit,
  removeDeadUnits,
  removeRelations,
  removeUnits,
  setConstraints,
  setMachineProvisioned,
  setMachineStatus,
  setUnitDead,
  transact,
} from "../src/model/index.js";
import { nextSequence } from "../src/model/sequences.js";
import { lockModel, modelRowWritten, needsTurnAlone, type Tx } from "../src/model/write/index.js";
import { useApi } from "./support/api.js";
import { onPostgres, uniqueName } from "./support/store.js";

const api = useApi();

/** A model with an application of no units, and the revision it is at. */
async function freshModel() {
  const model = await addModel(api.store.db, { name: uniqueName() });
  await deploy(api.store.db, { model: model.name, charm: "wordpress", numUnits: 0 });
  return { model, since: await revisionOf(model.id) };
}

/** The model's revision now: the change rows after it are those of what follows. */
async function revisionOf(modelId: string) {
  const [row] = await api.store.db.select({ revision: models.revision }).from(models).where(eq(models.id, modelId));
  return row!.revision;
}

/** The transaction (xmin) of each change row after `since`, in revision order, with its entity. */
async function writersOf(modelId: string, since: number) {
  const rows = await api.store.db
    .select({ tx: sql<string>`${changes}.xmin::text`, kind: changes.kind, entity: changes.entity })
    .from(changes)
    .where(and(eq(changes.modelId, modelId), gt(changes.revision, since)))
    .orderBy(changes.revision);
  return rows;
}

const constraints = (model: string, text: string) => setConstraints(api.store.db, { model, application: "wordpress", constraints: text });

describe("group commit", () => {
  it("writers that queue while a model's transaction runs share the next one: one transaction for all of them", async () => {
    const { model, since } = await freshModel();
    // The first finds nobody ahead and runs alone; the four behind it queue meanwhile.
    await Promise.all([1, 2, 3, 4, 5].map((n) => constraints(model.name, `cores=${n}`)));
    const writers = await writersOf(model.id, since);
    expect(writers).toHaveLength(5);
    expect(new Set(writers.slice(1).map((w) => w.tx)).size).toBe(1);
    expect(writers[0]!.tx).not.toBe(writers[1]!.tx);
  });

  it.skipIf(onPostgres)(
    "on PGlite a group weighs at most 10 units: calls adding 10 units each take a transaction each (it holds every client there)",
    async () => {
      const { model, since } = await freshModel();
      const add = () => addUnit(api.store.db, { model: model.name, application: "wordpress", count: 10, placement: Array(10).fill("0") });
      await Promise.all([add(), add(), add()]);
      const writers = await writersOf(model.id, since);
      expect(new Set(writers.map((w) => w.tx)).size).toBe(3);
      // Small writers still share one: five constraints changes queued behind a running one.
      const after = (await writersOf(model.id, since)).length + since;
      await Promise.all([1, 2, 3, 4, 5].map((n) => constraints(model.name, `cores=${n}`)));
      expect(new Set((await writersOf(model.id, after)).slice(1).map((w) => w.tx)).size).toBe(1);
    },
  );

  it("a refusal in a group undoes only its own writes and changes; the others commit together", async () => {
    const { model, since } = await freshModel();
    const outcomes = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      constraints(model.name, "cores=2"),
      // Writes wordpress/0 on machine 0, then is refused: machine 99 does not exist.
      addUnit(api.store.db, { model: model.name, application: "wordpress", count: 2, placement: ["0", "99"] }),
      addUnit(api.store.db, { model: model.name, application: "wordpress", placement: ["0"] }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: "NOT_FOUND" });
    // The refused writer's unit and its number went with it: the next writer got wordpress/0.
    const rows = await api.store.db.select({ name: units.name }).from(units).where(eq(units.modelId, model.id));
    expect(rows.map((r) => r.name)).toEqual(["wordpress/0"]);
    const group = (await writersOf(model.id, since)).slice(-2);
    expect(group.map((w) => `${w.kind} ${w.entity}`)).toEqual(["application wordpress", "unit wordpress/0"]);
    expect(group[0]!.tx).toBe(group[1]!.tx);
  });

  it("a writer refused before it wrote anything: the others commit together, in the same transaction", async () => {
    const { model, since } = await freshModel();
    const outcomes = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      constraints(model.name, "cores=2"),
      setConstraints(api.store.db, { model: model.name, application: "no-such-application", constraints: "cores=3" }),
      constraints(model.name, "cores=4"),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: "NOT_FOUND" });
    const group = (await writersOf(model.id, since)).slice(-2);
    expect(group[0]!.tx).toBe(group[1]!.tx);
  });

  it("the last writer of a group refused after a read PostgreSQL failed: the others' writes still commit", async () => {
    const { model } = await freshModel();
    const outcomes = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      // Writes with no change row: nothing of the group but the COMMIT comes after the refused writer's read.
      transact(
        api.store.db,
        async (tx) => {
          const { id } = await lockModel(tx, model.name, "any");
          await tx.db
            .update(models)
            .set({ constraints: { mem: 8192 } })
            .where(eq(models.id, id));
          modelRowWritten(tx, model.name);
        },
        model.name,
      ),
      transact(
        api.store.db,
        async (tx) => {
          await lockModel(tx, model.name, "any");
          // Sent, never awaited: the refusal below does not depend on it, but the transaction has failed behind it.
          sentAhead(tx.db.execute(sql`select 1 / 0`));
          throw new LifelineError("INVALID_ARGUMENT", "refused");
        },
        model.name,
      ),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: "INVALID_ARGUMENT" });
    const [row] = await api.store.db.select({ constraints: models.constraints }).from(models).where(eq(models.id, model.id));
    expect(row!.constraints).toEqual({ mem: 8192 });
  });

  it("a writer of a group whose failure a retry cures runs again, alone, and the others are not held back by it", async () => {
    const { model } = await freshModel();
    const deadlock = Object.assign(new Error("simulated deadlock"), { code: "40P01" });
    let attempts = 0;
    const results = await Promise.all([
      constraints(model.name, "cores=1"), // alone
      transact(
        api.store.db,
        async () => {
          if (++attempts === 1) throw deadlock;
          return "retried";
        },
        model.name,
      ),
      constraints(model.name, "cores=3").then(() => "committed"),
    ]);
    expect(results.slice(1)).toEqual(["retried", "committed"]);
    expect(attempts).toBe(2);
  });

  it("a writer behind destroyModel in the same group finds the model Dying: what needs it Alive is refused", async () => {
    const { model, since } = await freshModel();
    const outcomes = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      destroyModel(api.store.db, { model: model.name }),
      addMachine(api.store.db, { model: model.name }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: "NOT_ALIVE" });
    const group = (await writersOf(model.id, since)).slice(-2);
    expect(group.map((w) => `${w.kind} ${w.entity}`)).toEqual([`model ${model.name}`, `cleanup ${group[1]!.entity}`]);
  });

  it("a writer behind the model's setConstraints in the same group captures the new constraints (seed 004)", async () => {
    const { model } = await freshModel();
    const [, , machine] = await Promise.all([
      constraints(model.name, "cores=1"), // alone
      setConstraints(api.store.db, { model: model.name, constraints: "mem=8G" }),
      addMachine(api.store.db, { model: model.name }),
    ]);
    expect(machine.constraints).toMatchObject({ mem: 8192 });
  });

  /** A writer that sets the model's constraints to mem=8G, reads its row again, then fails by `failing`. */
  const writesModelRowThenFails = (model: string, failing: (tx: Tx, id: string) => void) =>
    transact(
      api.store.db,
      async (tx) => {
        const { id } = await lockModel(tx, model, "any");
        await tx.db
          .update(models)
          .set({ constraints: { mem: 8192 } })
          .where(eq(models.id, id));
        modelRowWritten(tx, model);
        await lockModel(tx, model, "any");
        failing(tx, id);
      },
      model,
    );

  it("a writer behind one refused after writing the model's row sees the row as it was before that one", async () => {
    const { model } = await freshModel();
    const [, refused, machine] = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      writesModelRowThenFails(model.name, () => {
        throw new LifelineError("INVALID_ARGUMENT", "refused after writing");
      }),
      addMachine(api.store.db, { model: model.name }),
    ]);
    expect(refused).toMatchObject({ status: "rejected", reason: { code: "INVALID_ARGUMENT" } });
    expect(machine.status === "fulfilled" && machine.value.constraints).toEqual({});
  });

  it("a writer run again after the one before it was undone sees the model's row as it was before that one", async () => {
    const { model } = await freshModel();
    const [, undone, machine] = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      // Its deferred write fails once the next writer has started: that one runs again, without the row written here.
      writesModelRowThenFails(
        model.name,
        (tx, id) => void tx.defer(tx.db.execute(sql`update models set revision = revision / 0 where id = ${id}`)),
      ),
      addMachine(api.store.db, { model: model.name }),
    ]);
    expect(undone).toMatchObject({ status: "rejected", reason: { cause: { code: "22012" } } });
    expect(machine.status === "fulfilled" && machine.value.constraints).toEqual({});
  });

  it("a writer's deferred write that fails undoes only that writer; the one behind it, refused behind the failure, runs again in the same transaction", async () => {
    const { model, since } = await freshModel();
    const outcomes = await Promise.allSettled([
      constraints(model.name, "cores=1"), // alone
      constraints(model.name, "cores=2"),
      transact(
        api.store.db,
        async (tx) => {
          const { id } = await lockModel(tx, model.name, "any");
          // Not awaited: the next writer's savepoint and lock are sent behind it, and PostgreSQL refuses them (25P02).
          tx.defer(tx.db.execute(sql`update models set revision = revision / 0 where id = ${id}`));
        },
        model.name,
      ),
      constraints(model.name, "mem=3G"),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ cause: { code: "22012" } });
    // The second and the fourth committed together: the group's transaction went on past the failure.
    const group = (await writersOf(model.id, since)).slice(-2);
    expect(group.map((w) => `${w.kind} ${w.entity}`)).toEqual(["application wordpress", "application wordpress"]);
    expect(group[0]!.tx).toBe(group[1]!.tx);
  });

  describe("writers side by side (their footprints cannot meet: src/model/footprint.ts)", () => {
    /** The model's `probe` counter as `tx` reads it: undefined before anything bumped it. */
    const probe = async (tx: Tx, modelId: string) =>
      (
        await tx.db
          .select({ value: sequences.value })
          .from(sequences)
          .where(and(eq(sequences.modelId, modelId), eq(sequences.name, "probe")))
      )[0]?.value;

    /**
     * A group of three behind a writer alone: the first takes the model's lock for the group, the second reads the probe
     * counter then bumps it, the third reads it. Returns what the third read.
     */
    async function readBehindWrite(writing: Footprint, reading: Footprint): Promise<number | undefined> {
      const { model } = await freshModel();
      const [, , , seen] = await Promise.all([
        constraints(model.name, "cores=1"), // alone
        constraints(model.name, "cores=2"), // the group's first: it takes the lock, alone
        transact(
          api.store.db,
          async (tx) => {
            const { id } = await lockModel(tx, model.name, "any");
            await probe(tx, id);
            await nextSequence(tx, id, "probe");
          },
          model.name,
          writing,
        ),
        transact(api.store.db, async (tx) => probe(tx, (await lockModel(tx, model.name, "any")).id), model.name, reading),
      ]);
      return seen;
    }

    it("writers whose footprints cannot meet run side by side: the reader's statement went out with the writer's first, ahead of its write", async () => {
      expect(await readBehindWrite(touching([entity.unit("web/0"), "write"]), touching([entity.unit("web/1"), "write"]))).toBeUndefined();
    });

    it("a writer and a reader of one entity run one after another: the reader sees the write", async () => {
      expect(await readBehindWrite(touching([entity.unit("web/0"), "write"]), touching([entity.unit("web/0"), "read"]))).toBe(1);
    });

    it("a writer without a footprint runs one after another with the others", async () => {
      expect(await readBehindWrite(touching([entity.unit("web/0"), "write"]), undefined as unknown as Footprint)).toBe(1);
    });

    /** A model with `count` machines, and the revision it is at. */
    async function withMachines(count: number) {
      const { model } = await freshModel();
      const ids: string[] = [];
      for (let n = 0; n < count; n++) ids.push((await addMachine(api.store.db, { model: model.name })).id);
      return { model, machines: ids, since: await revisionOf(model.id) };
    }

    const started = (model: string, machine: string) => setMachineStatus(api.store.db, { model, machine, status: "started" });

    it("writers side by side commit together, their change rows in the order they queued", async () => {
      const { model, machines, since } = await withMachines(5);
      await Promise.all([constraints(model.name, "cores=1"), ...machines.map((m) => started(model.name, m))]);
      const group = (await writersOf(model.id, since)).slice(1);
      expect(group.map((w) => `${w.kind} ${w.entity}`)).toEqual(machines.map((m) => `machine ${m}`));
      expect(new Set(group.map((w) => w.tx)).size).toBe(1);
    });

    it("a refusal among writers side by side undoes only its own: the group runs again, one after another, and the rest commit together", async () => {
      const { model, machines, since } = await withMachines(3);
      const outcomes = await Promise.allSettled([
        constraints(model.name, "cores=1"), // alone
        started(model.name, machines[0]!),
        started(model.name, machines[1]!),
        started(model.name, "99"), // no such machine
        started(model.name, machines[2]!),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled"]);
      expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ code: "NOT_FOUND" });
      const group = (await writersOf(model.id, since)).slice(1);
      expect(group.map((w) => `${w.kind} ${w.entity}`)).toEqual([machines[0], machines[1], machines[2]].map((m) => `machine ${m}`));
      expect(new Set(group.map((w) => w.tx)).size).toBe(1);
    });

    it("writers side by side in a model that does not exist are each refused NOT_FOUND (the lock one of them sent refused them all)", async () => {
      const missing = uniqueName();
      const outcomes = await Promise.allSettled(["0", "1", "2", "3"].map((m) => started(missing, m)));
      expect(outcomes.map((o) => o.status === "rejected" && (o.reason as LifelineError).code)).toEqual([
        "NOT_FOUND",
        "NOT_FOUND",
        "NOT_FOUND",
        "NOT_FOUND",
      ]);
    });

    it("a writer that finds it needs more than its footprint says (needsTurnAlone) has its group run again, one writer after another", async () => {
      const { model } = await freshModel();
      const besides: boolean[] = [];
      const alone = touching([entity.unit("web/0"), "write"]);
      const [, , , answer] = await Promise.all([
        constraints(model.name, "cores=1"), // alone
        constraints(model.name, "cores=2"), // the group's first
        constraints(model.name, "cores=3").then(() => "committed"), // no footprint: before the two below
        transact(
          api.store.db,
          async (tx) => {
            await lockModel(tx, model.name, "any");
            try {
              needsTurnAlone(tx);
              besides.push(false);
            } catch (signal) {
              besides.push(true);
              throw signal;
            }
            return "ran alone";
          },
          model.name,
          alone,
        ),
        started(model.name, "99").catch(() => "refused"), // side by side with the one above: a footprint of its own
      ]);
      expect(answer).toBe("ran alone");
      expect(besides).toEqual([true, false]);
    });
  });

  it("the units of one relation enter its scope side by side: every membership is written and the member count adds up", async () => {
    const { model } = await freshModel();
    await deploy(api.store.db, { model: model.name, charm: "mysql", numUnits: 1 });
    const relation = await integrate(api.store.db, { model: model.name, endpoints: ["wordpress", "mysql"] });
    const added = await addUnit(api.store.db, { model: model.name, application: "wordpress", count: 6 });
    const enter = (unit: string) =>
      enterScope(api.store.db, { model: model.name, relation: relation.id, unit, privateAddress: "10.0.0.1" });
    await Promise.all([constraints(model.name, "cores=1"), ...added.map((u) => enter(u.name))]);
    const members = await api.store.db
      .select()
      .from(relationScopes)
      .where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.relationId, relation.id)));
    expect(members.map((m) => m.unit).sort()).toEqual(added.map((u) => u.name).sort());
    const [row] = await api.store.db
      .select({ count: relations.unitCount })
      .from(relations)
      .where(and(eq(relations.modelId, model.id), eq(relations.id, relation.id)));
    expect(row!.count).toBe(6);
  });

  /** A relation between wordpress and mysql whose `count` wordpress units are in its scope. */
  async function relationWithMembers(model: string, count: number) {
    await deploy(api.store.db, { model, charm: "mysql", numUnits: 0 });
    const relation = await integrate(api.store.db, { model, endpoints: ["wordpress", "mysql"] });
    const added = await addUnit(api.store.db, { model, application: "wordpress", count });
    for (const unit of added) await enterScope(api.store.db, { model, relation: relation.id, unit: unit.name, privateAddress: "10.0.0.1" });
    return { relation, members: added.map((u) => u.name) };
  }

  const leave = (model: string, relation: number, unit: string) => leaveScope(api.store.db, { model, relation, unit });

  const memberCount = async (modelId: string, id: number) =>
    (
      await api.store.db
        .select({ count: relations.unitCount })
        .from(relations)
        .where(and(eq(relations.modelId, modelId), eq(relations.id, id)))
    )[0]?.count;

  it("members leaving a Dying relation side by side, not the last: the member count adds up and the relation stays", async () => {
    const { model } = await freshModel();
    const { relation, members } = await relationWithMembers(model.name, 6);
    await removeRelations(api.store.db, { model: model.name, targets: [String(relation.id)] });
    const results = await Promise.all([
      constraints(model.name, "cores=1"),
      ...members.slice(1).map((u) => leave(model.name, relation.id, u)),
    ]);
    expect(results.slice(1).map((r) => (r as { relationRemoved: boolean }).relationRemoved)).toEqual([false, false, false, false, false]);
    expect(await memberCount(model.id, relation.id)).toBe(1);
  });

  it("the last members of a Dying relation leave side by side: the last to leave removes it (seed 001), once", async () => {
    const { model } = await freshModel();
    const { relation, members } = await relationWithMembers(model.name, 6);
    await removeRelations(api.store.db, { model: model.name, targets: [String(relation.id)] });
    const results = await Promise.all([constraints(model.name, "cores=1"), ...members.map((u) => leave(model.name, relation.id, u))]);
    expect(results.slice(1).filter((r) => (r as { relationRemoved: boolean }).relationRemoved)).toHaveLength(1);
    expect(await memberCount(model.id, relation.id)).toBeUndefined();
    expect(await api.store.db.select().from(relationScopes).where(eq(relationScopes.modelId, model.id))).toEqual([]);
  });

  /** A Dying relation between wordpress and memcached, `count` memcached units (which ship no -broken hook) in its scope. */
  async function dyingRelationOfCaches(model: string, count: number) {
    await deploy(api.store.db, { model, charm: "memcached", application: "cache", numUnits: 0 });
    const relation = await integrate(api.store.db, { model, endpoints: ["wordpress", "cache"] });
    const added = await addUnit(api.store.db, { model, application: "cache", count });
    for (const unit of added) await enterScope(api.store.db, { model, relation: relation.id, unit: unit.name, privateAddress: "10.0.0.1" });
    await removeRelations(api.store.db, { model, targets: [String(relation.id)] });
    return { relation, members: added.map((u) => u.name) };
  }

  /** One call recording the relation's -broken for each of `units` (a gathered call of their agents'). */
  const broken = (model: string, relation: number, units: readonly string[]) =>
    recordUnitsMissingHooks(api.store.db, {
      model,
      units: units.map((unit) => ({ unit, hooks: [{ hook: "cache-relation-broken", relation }] })),
    });

  it("members leaving a Dying relation side by side, several a call, not the last: the member count adds up and the relation stays", async () => {
    const { model } = await freshModel();
    const { relation, members } = await dyingRelationOfCaches(model.name, 7);
    await Promise.all([
      constraints(model.name, "cores=1"),
      broken(model.name, relation.id, members.slice(1, 4)),
      broken(model.name, relation.id, members.slice(4)),
    ]);
    expect(await memberCount(model.id, relation.id)).toBe(1);
    expect(
      await api.store.db.select({ unit: relationScopes.unit }).from(relationScopes).where(eq(relationScopes.modelId, model.id)),
    ).toEqual([{ unit: members[0] }]);
  });

  it("the last members of a Dying relation leave side by side, several a call: the last to leave removes it (seed 001), once", async () => {
    const { model } = await freshModel();
    const { relation, members } = await dyingRelationOfCaches(model.name, 6);
    const since = await revisionOf(model.id);
    await Promise.all([
      constraints(model.name, "cores=1"),
      broken(model.name, relation.id, members.slice(0, 3)),
      broken(model.name, relation.id, members.slice(3)),
    ]);
    expect(await memberCount(model.id, relation.id)).toBeUndefined();
    expect(await api.store.db.select().from(relationScopes).where(eq(relationScopes.modelId, model.id))).toEqual([]);
    const removed = (await writersOf(model.id, since)).filter((c) => c.kind === "relation" && c.entity === String(relation.id));
    expect(removed).toHaveLength(1);
  });

  /** A writer without a footprint, for the writers behind it to queue up behind: mysql's constraints (wordpress may be Dying). */
  const barrier = async (model: string) => {
    await deploy(api.store.db, { model, charm: "mysql", numUnits: 0 }).catch(() => {});
    return () => setConstraints(api.store.db, { model, application: "mysql", constraints: "cores=1" });
  };

  /** `count` Dead units of wordpress, each on a provisioned machine of its own (so that removing them waits for their deployer). */
  async function deadUnits(model: string, count: number, remove: (units: string[]) => Promise<unknown>) {
    const first = await barrier(model);
    const added = await addUnit(api.store.db, { model, application: "wordpress", count });
    for (const unit of added)
      await setMachineProvisioned(api.store.db, { model, machine: unit.machineId!, instanceId: `i-${uniqueName()}` });
    await remove(added.map((u) => u.name));
    await Promise.all([first(), ...added.map((u) => setUnitDead(api.store.db, { model, unit: u.name }))]);
    return added.map((u) => u.name);
  }

  const application = async (modelId: string) =>
    (
      await api.store.db
        .select({ unitCount: applications.unitCount, life: applications.life })
        .from(applications)
        .where(and(eq(applications.modelId, modelId), eq(applications.name, "wordpress")))
    )[0];

  it("units of an Alive application removed side by side: its unit count adds up", async () => {
    const { model } = await freshModel();
    await addUnit(api.store.db, { model: model.name, application: "wordpress", count: 1 });
    const dead = await deadUnits(model.name, 5, (targets) => removeUnits(api.store.db, { model: model.name, targets }));
    await Promise.all([
      constraints(model.name, "cores=1"),
      ...dead.map((unit) => removeDeadUnit(api.store.db, { model: model.name, unit })),
    ]);
    expect(await application(model.id)).toEqual({ unitCount: 1, life: "alive" });
  });

  it("the last units of a Dying application removed side by side: the last holder removes it (seed 000), once", async () => {
    const { model, since } = await freshModel();
    const dead = await deadUnits(model.name, 5, () => removeApplications(api.store.db, { model: model.name, targets: ["wordpress"] }));
    await Promise.all([(await barrier(model.name))(), ...dead.map((unit) => removeDeadUnit(api.store.db, { model: model.name, unit }))]);
    expect(await application(model.id)).toBeUndefined();
    const removed = (await writersOf(model.id, since)).filter((c) => c.kind === "application" && c.entity === "wordpress");
    expect(removed.length).toBeGreaterThan(0);
    expect(await api.store.db.select().from(units).where(eq(units.modelId, model.id))).toEqual([]);
  });

  it("units of a Dying application removed side by side, several a call, not the last: its unit count adds up", async () => {
    const { model } = await freshModel();
    const dead = await deadUnits(model.name, 7, () => removeApplications(api.store.db, { model: model.name, targets: ["wordpress"] }));
    await Promise.all([
      (await barrier(model.name))(),
      removeDeadUnits(api.store.db, { model: model.name, units: dead.slice(1, 4) }),
      removeDeadUnits(api.store.db, { model: model.name, units: dead.slice(4) }),
    ]);
    expect(await application(model.id)).toEqual({ unitCount: 1, life: "dying" });
  });

  it("the last units of a Dying application removed side by side, several a call: the last holder removes it (seed 000), once", async () => {
    const { model, since } = await freshModel();
    const dead = await deadUnits(model.name, 6, () => removeApplications(api.store.db, { model: model.name, targets: ["wordpress"] }));
    await Promise.all([
      (await barrier(model.name))(),
      removeDeadUnits(api.store.db, { model: model.name, units: dead.slice(0, 3) }),
      removeDeadUnits(api.store.db, { model: model.name, units: dead.slice(3) }),
    ]);
    expect(await application(model.id)).toBeUndefined();
    const removed = (await writersOf(model.id, since)).filter((c) => c.kind === "application" && c.entity === "wordpress");
    expect(removed.length).toBeGreaterThan(0);
    expect(await api.store.db.select().from(units).where(eq(units.modelId, model.id))).toEqual([]);
  });

  it("a principal entering a container-scoped relation in a group creates its subordinate once", async () => {
    const { model } = await freshModel();
    await deploy(api.store.db, { model: model.name, charm: "logging", numUnits: 0 });
    const relation = await integrate(api.store.db, { model: model.name, endpoints: ["logging", "wordpress"] });
    const [first, second] = await addUnit(api.store.db, { model: model.name, application: "wordpress", count: 2 });
    const enter = (unit: string) =>
      enterScope(api.store.db, { model: model.name, relation: relation.id, unit, privateAddress: "10.0.0.1" });
    const [, a, b] = await Promise.all([constraints(model.name, "cores=1"), enter(first!.name), enter(second!.name)]);
    expect([a.subordinate?.name, b.subordinate?.name].sort()).toEqual(["logging/0", "logging/1"]);
    const subordinates = await api.store.db
      .select({ name: units.name, principal: units.principal })
      .from(units)
      .where(and(eq(units.modelId, model.id), eq(units.application, "logging")));
    expect(subordinates.map((u) => u.principal).sort()).toEqual([first!.name, second!.name].sort());
  });
});
