// The unit agent's hook order (Juju's uniter resolver; ../shared/JUJU-AGENTS.md
// "Unit agent", seed 002), as pure functions: given the agent's progress and
// what its streams say now, which hook runs next, and what progress becomes
// once it is committed.
import { describe, expect, it } from "vitest";
import {
  afterHook,
  applyHook,
  copyProgress,
  freshProgress,
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
