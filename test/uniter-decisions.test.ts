// The rest of a unit agent's pass, around the hook order (src/agents/uniter/
// resolver.ts; Juju's uniterResolver and relation state tracker), as pure
// functions: which hook a failure allows, which scopes to enter, when a
// subordinate must go Dying, and when the unit may be set Dead.
import { describe, expect, it } from "vitest";
import {
  belongsIn,
  cutOffFromPrincipal,
  type FailureNow,
  freshProgress,
  type Hook,
  nextHookChoice,
  ownEndpoint,
  type RelationView,
  readyToBeDead,
  type Situation,
  type StoredProgress,
  scopesToEnter,
} from "../src/agents/uniter/resolver.js";
import type { RelationInfoFieldsFragment } from "../src/client/graphql.js";

const started = (pending: Hook | null = null): StoredProgress => ({
  ...freshProgress(),
  installed: true,
  configVersion: 1,
  started: true,
  pending,
});
const situation = (configVersion = 1): Situation => ({ unitLife: "ALIVE", configVersion, relations: {} });
const fine: FailureNow = { inError: false, resolved: null, pendingFailed: false, retryDue: false };
const start: Hook = { name: "start" };

/** A relation as the applicationRelations stream shows it. */
function relation(id: number, life: "ALIVE" | "DYING", scope: "GLOBAL" | "CONTAINER", ...endpoints: string[]): RelationView {
  const info: RelationInfoFieldsFragment = {
    id,
    key: endpoints.join(" "),
    scope,
    interface: "x",
    unitCount: 0,
    endpoints: endpoints.map((e) => {
      const [applicationName, name] = e.split(":") as [string, string];
      return { applicationName, name };
    }),
  };
  return { entity: String(id), life, info };
}

describe("the hook a pass runs (nextHookChoice: Juju's nextOpHookError)", () => {
  it("out of error: the hook begun and never committed (a restart mid-hook) runs again, before the resolver's next", () => {
    expect(nextHookChoice(started(start), fine, situation(2))).toEqual({ hook: start, skip: false });
    expect(nextHookChoice(started(), fine, situation(2))).toEqual({ hook: { name: "config-changed" }, skip: false });
    expect(nextHookChoice(started(), fine, situation())).toBeNull();
  });

  it("in error, the failed hook waits, whatever else is due", () => {
    expect(nextHookChoice(started(start), { ...fine, inError: true }, situation(2))).toBe("wait");
  });

  it("a resolution runs the failed hook again, or skips it with no retry; either is the resolution's run", () => {
    const retry = { ...fine, inError: true, resolved: "RETRY_HOOK" as const };
    expect(nextHookChoice(started(start), retry, situation())).toEqual({ hook: start, skip: false, by: "resolution" });
    const skip = { ...fine, inError: true, resolved: "SKIP_HOOK" as const };
    expect(nextHookChoice(started(start), skip, situation())).toEqual({ hook: start, skip: true, by: "resolution" });
  });

  it("the retry timer's firing allows one run, the timer's; a resolution pending comes first", () => {
    const due = { ...fine, inError: true, retryDue: true };
    expect(nextHookChoice(started(start), due, situation())).toEqual({ hook: start, skip: false, by: "timer" });
    expect(nextHookChoice(started(start), { ...due, resolved: "SKIP_HOOK" }, situation())).toMatchObject({ by: "resolution" });
  });

  it("a failure the agent committed itself counts before its stream says error: it waits, and no stale row's resolution runs it", () => {
    const ahead = { ...fine, pendingFailed: true, resolved: "RETRY_HOOK" as const };
    expect(nextHookChoice(started(start), ahead, situation())).toBe("wait");
    expect(nextHookChoice(started(start), { ...ahead, retryDue: true }, situation())).toMatchObject({ by: "timer" });
  });
});

describe("relation scopes", () => {
  const relations = [
    relation(1, "ALIVE", "GLOBAL", "wordpress:db", "mysql:db"),
    relation(2, "DYING", "GLOBAL", "wordpress:cache", "memcached:cache"),
    relation(3, "ALIVE", "CONTAINER", "logging:info", "wordpress:juju-info"),
    relation(4, "ALIVE", "CONTAINER", "logging:info", "mysql:juju-info"),
  ];

  it("a principal enters each Alive relation of its application it is not in yet", () => {
    const inOne = { ...started(), relations: { 1: { endpoint: "db", members: {}, changedPending: null } } };
    expect(scopesToEnter(relations, inOne, null).map((r) => r.entity)).toEqual(["3", "4"]);
  });

  it("a subordinate enters only its principal's container-scoped relations, and global ones", () => {
    expect(scopesToEnter(relations, started(), "wordpress/0").map((r) => r.entity)).toEqual(["1", "3"]);
    expect(belongsIn(relations[3]!.info, "mysql/0")).toBe(true);
    expect(belongsIn(relations[3]!.info, "wordpress/0")).toBe(false);
  });

  it("the unit's endpoint is its application's; none while the relation is unknown", () => {
    expect(ownEndpoint(relations[2]!.info, "wordpress")).toBe("juju-info");
    expect(ownEndpoint(undefined, "wordpress")).toBe("");
  });
});

describe("life (seed 001)", () => {
  it("a subordinate is cut off once no Alive container-scoped relation with its principal's application remains", () => {
    const toWordpress = relation(3, "ALIVE", "CONTAINER", "logging:info", "wordpress:juju-info");
    expect(cutOffFromPrincipal([toWordpress], "wordpress/0")).toBe(false);
    expect(cutOffFromPrincipal([{ ...toWordpress, life: "DYING" }], "wordpress/0")).toBe(true);
    expect(cutOffFromPrincipal([relation(4, "ALIVE", "CONTAINER", "logging:info", "mysql:juju-info")], "wordpress/0")).toBe(true);
    expect(cutOffFromPrincipal([relation(5, "ALIVE", "GLOBAL", "logging:info", "wordpress:juju-info")], "wordpress/0")).toBe(true);
  });

  it("a principal never is", () => {
    expect(cutOffFromPrincipal([], null)).toBe(false);
  });

  it("a unit may be set Dead once Dying, removed, in no scope and with no subordinate left", () => {
    const removed = { ...started(), stopped: true, removed: true };
    expect(readyToBeDead("DYING", removed, 0)).toBe(true);
    expect(readyToBeDead("ALIVE", removed, 0)).toBe(false);
    expect(readyToBeDead("DYING", { ...removed, removed: false }, 0)).toBe(false);
    expect(readyToBeDead("DYING", removed, 1)).toBe(false);
    const inScope = { ...removed, relations: { 1: { endpoint: "db", members: {}, changedPending: null } } };
    expect(readyToBeDead("DYING", inScope, 0)).toBe(false);
  });
});
