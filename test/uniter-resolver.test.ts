// The unit agent's hook order (Juju's uniter resolver; "The Relations
// lifecycle"), as pure functions: given the agent's progress and
// what its streams say now, which hook runs next, and what progress becomes
// once it is committed.
import { describe, expect, it } from "vitest";
import {
  afterHook,
  applyHook,
  copyProgress,
  freshProgress,
  type Hook,
  hookSequence,
  nextHook,
  relationsToLeave,
  type Situation,
  type UniterProgress,
} from "../src/agents/uniter/resolver.js";

/** Runs hooks until none is due; returns them as "name remote" strings and the final progress. */
function settle(progress: UniterProgress, situation: Situation, limit = 50): { hooks: string[]; progress: UniterProgress } {
  const hooks: string[] = [];
  for (let hook = nextHook(progress, situation); hook; hook = nextHook(progress, situation)) {
    hooks.push(hook.remoteUnit ? `${hook.name} ${hook.remoteUnit}` : hook.name);
    progress = afterHook(progress, hook, situation);
    for (const id of relationsToLeave(progress, situation)) delete progress.relations[id];
    if (hooks.length > limit) throw new Error(`no end to hooks: ${hooks.join(", ")}`);
  }
  return { hooks, progress };
}

const started = (): UniterProgress => ({ ...freshProgress(), installed: true, configVersion: 1, started: true });
const inRelation = (progress: UniterProgress, id: number, endpoint: string): UniterProgress => ({
  ...progress,
  relations: { ...progress.relations, [id]: { endpoint, members: {}, changedPending: null } },
});
const alive = (relations: Situation["relations"] = {}): Situation => ({ unitLife: "ALIVE", configVersion: 1, relations });

describe("start-up", () => {
  it("install, config-changed, start, in that order", () => {
    expect(settle(freshProgress(), alive()).hooks).toEqual(["install", "config-changed", "start"]);
  });

  it("a restart after install resumes at config-changed: progress is what the server kept", () => {
    expect(settle({ ...freshProgress(), installed: true }, alive()).hooks).toEqual(["config-changed", "start"]);
  });

  it("config-changed runs again when the application's config moves", () => {
    expect(settle(started(), { ...alive(), configVersion: 2 }).hooks).toEqual(["config-changed"]);
  });
});

describe("relation hooks (seed 002)", () => {
  it("-joined for each remote unit, sorted by name, each followed at once by its -changed", () => {
    const progress = inRelation(started(), 1, "db");
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/1": 1, "mysql/0": 2 } } });
    expect(settle(progress, situation).hooks).toEqual([
      "db-relation-joined mysql/0",
      "db-relation-changed mysql/0",
      "db-relation-joined mysql/1",
      "db-relation-changed mysql/1",
    ]);
  });

  it("units are ordered by application, then by number: mysql/9 before mysql/10, as Juju sorts them", () => {
    const progress = inRelation(started(), 1, "db");
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/10": 1, "mysql/9": 1, "mysql-b/2": 1 } } });
    expect(settle(progress, situation).hooks.filter((h) => h.startsWith("db-relation-joined"))).toEqual([
      "db-relation-joined mysql/9",
      "db-relation-joined mysql/10",
      "db-relation-joined mysql-b/2",
    ]);
  });

  it("applyHook is afterHook in place: passing hooks in a row gives the same progress and leaves the original alone", () => {
    const progress = inRelation(started(), 1, "db");
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/0": 3, "mysql/1": 1 } } });
    const before = JSON.stringify(progress);
    const working = copyProgress(progress);
    for (let hook = nextHook(working, situation); hook; hook = nextHook(working, situation)) applyHook(working, hook, situation);
    expect(working).toEqual(settle(progress, situation).progress);
    expect(JSON.stringify(progress)).toBe(before);
  });

  it("-changed only for units whose settings version moved", () => {
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/0": 1, "mysql/1": 1 } } });
    const { progress } = settle(inRelation(started(), 1, "db"), situation);
    const moved = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/0": 1, "mysql/1": 2 } } });
    expect(settle(progress, moved).hooks).toEqual(["db-relation-changed mysql/1"]);
  });

  it("a -joined is followed by -changed for that unit even if it left meanwhile, then -departed", () => {
    const progress = inRelation(started(), 1, "db");
    const joined = afterHook(
      progress,
      { name: "db-relation-joined", relation: { id: 1, endpoint: "db" }, remoteUnit: "mysql/0" },
      alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/0": 1 } } }),
    );
    const gone = alive({ 1: { life: "ALIVE", peer: false, remote: {} } });
    expect(settle(joined, gone).hooks).toEqual(["db-relation-changed mysql/0", "db-relation-departed mysql/0"]);
  });

  it("a remote unit that joined and left before its -joined ran gets neither hook", () => {
    const progress = inRelation(started(), 1, "db");
    expect(settle(progress, alive({ 1: { life: "ALIVE", peer: false, remote: {} } })).hooks).toEqual([]);
  });

  it("a Dying relation: -departed for every member, sorted, then -broken, which ends the relation's progress", () => {
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/1": 1, "mysql/0": 1 } } });
    const { progress } = settle(inRelation(started(), 1, "db"), situation);
    const dying = alive({ 1: { life: "DYING", peer: false, remote: { "mysql/1": 1, "mysql/0": 1 } } });
    const after = settle(progress, dying);
    expect(after.hooks).toEqual(["db-relation-departed mysql/0", "db-relation-departed mysql/1", "db-relation-broken"]);
    expect(after.progress.relations).toEqual({});
  });

  it("never -broken for a peer relation: its members depart, then the unit leaves", () => {
    const situation = alive({ 0: { life: "ALIVE", peer: true, remote: { "mysql/1": 1 } } });
    const { progress } = settle(inRelation(started(), 0, "cluster"), situation);
    const after = settle(progress, { ...situation, unitLife: "DYING" });
    expect(after.hooks).toEqual(["cluster-relation-departed mysql/1", "stop", "remove"]);
  });

  it("a relation removed under the agent still gets -departed for every member and -broken", () => {
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote: { "mysql/0": 1 } } });
    const { progress } = settle(inRelation(started(), 1, "db"), situation);
    expect(settle(progress, alive({})).hooks).toEqual(["db-relation-departed mysql/0", "db-relation-broken"]);
  });
});

describe("end of life (seed 001: a Dying unit departs every relation, then stops)", () => {
  it("every member departs, each relation is broken, then stop, then remove", () => {
    const situation = alive({
      1: { life: "ALIVE", peer: false, remote: { "mysql/0": 1 } },
      2: { life: "ALIVE", peer: false, remote: { "logging/0": 1 } },
    });
    const { progress } = settle(inRelation(inRelation(started(), 1, "db"), 2, "juju-info"), situation);
    expect(settle(progress, { ...situation, unitLife: "DYING" }).hooks).toEqual([
      "db-relation-departed mysql/0",
      "db-relation-broken",
      "juju-info-relation-departed logging/0",
      "juju-info-relation-broken",
      "stop",
      "remove",
    ]);
  });

  it("nothing runs once removed", () => {
    expect(nextHook({ ...started(), stopped: true, removed: true }, { ...alive(), unitLife: "DYING" })).toBeNull();
  });
});

describe("hookSequence: nextHook's hooks for a pass, each relation's members sorted once", () => {
  /** A small deterministic generator (mulberry32): every run checks the same cases. */
  function random(seed: number) {
    let a = seed;
    const next = () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return { chance: (p: number) => next() < p, int: (n: number) => Math.floor(next() * n) };
  }

  /** A progress and a situation drawn at random: units of two applications, some known, some remote, versions moved. */
  function randomCase(seed: number): { progress: UniterProgress; situation: Situation } {
    const r = random(seed);
    const units = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? `mysql-b/${i}` : `mysql/${i}`));
    const progress: UniterProgress = {
      installed: r.chance(0.9),
      configVersion: r.chance(0.9) ? r.int(3) : null,
      started: r.chance(0.9),
      stopped: false,
      removed: false,
      relations: {},
    };
    const situation: Situation = { unitLife: r.chance(0.7) ? "ALIVE" : "DYING", configVersion: r.int(3), relations: {} };
    for (let id = 1; id <= 1 + r.int(3); id++) {
      const members: Record<string, number> = {};
      const remote: Record<string, number> = {};
      for (const unit of units) {
        if (r.chance(0.4)) members[unit] = r.int(3);
        if (r.chance(0.5)) remote[unit] = r.int(3);
      }
      const known = Object.keys(members);
      const changedPending = known.length && r.chance(0.3) ? known[r.int(known.length)]! : null;
      progress.relations[id] = { endpoint: `ep${id}`, members, changedPending };
      if (r.chance(0.9)) situation.relations[id] = { life: r.chance(0.8) ? "ALIVE" : "DYING", peer: r.chance(0.2), remote };
    }
    return { progress, situation };
  }

  const spell = (hook: Hook) => `${hook.name} ${hook.remoteUnit ?? ""} ${hook.departingUnit ?? ""}`;

  it("gives the hooks nextHook gives one after another, in its order, with the same progress at the end (1,000 random cases)", () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const { progress, situation } = randomCase(seed);
      const expected: string[] = [];
      const byNextHook = copyProgress(progress);
      for (let hook = nextHook(byNextHook, situation); hook; hook = nextHook(byNextHook, situation)) {
        expected.push(spell(hook));
        applyHook(byNextHook, hook, situation);
      }
      const actual: string[] = [];
      const bySequence = copyProgress(progress);
      for (const hook of hookSequence(bySequence, situation)) {
        actual.push(spell(hook));
        applyHook(bySequence, hook, situation);
      }
      expect({ seed, hooks: actual }).toEqual({ seed, hooks: expected });
      expect(bySequence).toEqual(byNextHook);
    }
  });

  it("a caller may stop early: the hooks taken and applied are nextHook's first ones", () => {
    const { progress, situation } = randomCase(7);
    const taken: string[] = [];
    const working = copyProgress(progress);
    for (const hook of hookSequence(working, situation)) {
      if (taken.length === 3) break;
      taken.push(spell(hook));
      applyHook(working, hook, situation);
    }
    const first: string[] = [];
    const again = copyProgress(progress);
    for (let hook = nextHook(again, situation); hook && first.length < 3; hook = nextHook(again, situation)) {
      first.push(spell(hook));
      applyHook(again, hook, situation);
    }
    expect(taken).toEqual(first);
    expect(working).toEqual(again);
  });

  it("a hub that 20,000 units join: each -joined followed by its -changed, in Juju's order, then nothing", () => {
    const remote = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`scale/${i}`, 1]));
    const situation = alive({ 1: { life: "ALIVE", peer: false, remote } });
    const working = inRelation(started(), 1, "server");
    const hooks: string[] = [];
    for (const hook of hookSequence(working, situation)) {
      applyHook(working, hook, situation);
      hooks.push(`${hook.name} ${hook.remoteUnit}`);
    }
    expect(hooks.length).toBe(40_000);
    expect(hooks.slice(0, 4)).toEqual([
      "server-relation-joined scale/0",
      "server-relation-changed scale/0",
      "server-relation-joined scale/1",
      "server-relation-changed scale/1",
    ]);
    expect(hooks.at(-1)).toBe("server-relation-changed scale/19999");
    expect(nextHook(working, situation)).toBeNull();
  });
});
