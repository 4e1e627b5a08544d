// What a unit agent knows of itself beyond its streams (src/agents/uniter/
// local-state.ts, and the retry of a failed hook in retry.ts): the progress it
// starts from, and the small state machines a failed hook moves it through.
import { describe, expect, it } from "vitest";
import { LocalState, progressFrom } from "../src/agents/uniter/local-state.js";
import { freshProgress, type StoredProgress } from "../src/agents/uniter/resolver.js";
import { HookRetry } from "../src/agents/uniter/retry.js";
import type { UnitInfoFieldsFragment } from "../src/client/graphql.js";
import { ManualClock } from "./support/manual-clock.js";

const schedule = { baseMs: 5_000, maxMs: 20_000 };

function retry() {
  const clock = new ManualClock();
  let due = 0;
  const r = new HookRetry({ ...schedule, clock }, () => due++);
  return { clock, r, due: () => due };
}

/** The unit's row as its stream shows it, as far as a failure goes. */
const row = (current: string, resolved: UnitInfoFieldsFragment["resolved"] = null): UnitInfoFieldsFragment => ({
  name: "wordpress/0",
  applicationName: "wordpress",
  series: "jammy",
  machineId: "1",
  principalName: null,
  subordinate: false,
  resolved,
  agentLostSince: null,
  workloadStatus: null,
  agentStatus: { current, message: "", since: "", hook: null, relation: null, remoteUnit: null },
});

describe("the progress an agent starts from (progressFrom)", () => {
  it("a new unit's: nothing run, nothing pending", () => {
    expect(progressFrom(null, [], () => "")).toEqual({ ...freshProgress(), pending: null });
  });

  it("the document the server kept, as the agent wrote it", () => {
    const kept: StoredProgress = {
      ...freshProgress(),
      installed: true,
      configVersion: 3,
      pending: { name: "start" },
      relations: { 7: { endpoint: "db", members: { "mysql/0": 2 }, changedPending: null } },
    };
    expect(progressFrom(kept, [7], () => "unused")).toEqual(kept);
  });

  it("a scope the server says the unit is in and the document lacks is added, with the unit's endpoint and no member", () => {
    const progress = progressFrom({ installed: true }, [4], (id) => (id === 4 ? "cluster" : ""));
    expect(progress.installed).toBe(true);
    expect(progress.relations).toEqual({ 4: { endpoint: "cluster", members: {}, changedPending: null } });
  });
});

describe("the retry of a failed hook (HookRetry: unplanned → planned → due → unplanned)", () => {
  it("planned with the model retrying, its timer fires after the schedule's next wait: one run is due", () => {
    const { clock, r, due } = retry();
    expect(r.step).toBe("unplanned");
    expect(r.plan(true)).toBe(5_000);
    expect(r.step).toBe("planned");
    clock.advance(5_000);
    expect([r.step, due()]).toEqual(["due", 1]);
  });

  it("planned with the model not retrying: no timer, nothing ever comes due", () => {
    const { clock, r } = retry();
    expect(r.plan(false)).toBeNull();
    clock.advance(3_600_000);
    expect([r.step, clock.waits()]).toEqual(["planned", []]);
  });

  it("the timer's run keeps the schedule's place: the next failure waits twice as long", () => {
    const { clock, r } = retry();
    r.plan(true);
    clock.advance(5_000);
    r.take("timer");
    expect(r.step).toBe("unplanned");
    expect(r.plan(true)).toBe(10_000);
  });

  it("a resolution's run disarms the timer and starts the schedule over (Juju's StopRetryHookTimer)", () => {
    const { clock, r } = retry();
    r.plan(true);
    r.take("resolution");
    expect([r.step, clock.waits()]).toEqual(["unplanned", []]);
    expect(r.plan(true)).toBe(5_000);
  });

  it("a new failure unplans a planned retry, so the next pass plans the next wait; a due one stays due", () => {
    const { clock, r } = retry();
    r.plan(true);
    r.failedAgain();
    expect(r.step).toBe("unplanned");
    r.plan(true);
    clock.advance(60_000);
    r.failedAgain();
    expect(r.step).toBe("due");
  });

  it("reset (out of error, or stopping) disarms and starts over", () => {
    const { clock, r } = retry();
    r.plan(true);
    r.reset();
    expect([r.step, clock.waits()]).toEqual(["unplanned", []]);
    expect(r.plan(true)).toBe(5_000);
  });
});

describe("LocalState: a failed hook as the agent lives it", () => {
  const begun: StoredProgress = { ...freshProgress(), pending: { name: "install" } };

  function local() {
    const { clock, r } = retry();
    return { clock, state: new LocalState({ ...freshProgress(), pending: null }, true, r) };
  }

  it("its own failure counts before its stream says error; a commit ends it and starts the retry over", () => {
    const { clock, state } = local();
    state.begun(begun);
    expect(state.progress).toBe(begun);
    state.failed();
    expect(state.failureNow(row("executing"))).toEqual({ inError: false, resolved: null, pendingFailed: true, retryDue: false });
    state.retry.plan(true);
    const done = { ...freshProgress(), installed: true, pending: null };
    state.committed(done);
    expect([state.progress, state.pendingFailed, state.retry.step, clock.waits()]).toEqual([done, false, "unplanned", []]);
  });

  it("its stream's row says whether it is in error and what was resolved, and the timer whether a retry is due", () => {
    const { clock, state } = local();
    state.retry.plan(true);
    clock.advance(5_000);
    expect(state.failureNow(row("error", "RETRY_HOOK"))).toEqual({
      inError: true,
      resolved: "RETRY_HOOK",
      pendingFailed: false,
      retryDue: true,
    });
  });

  it("a run begun for a resolution or the timer spends what allowed it", () => {
    const { clock, state } = local();
    state.retry.plan(true);
    clock.advance(5_000);
    state.begun(begun, "timer");
    expect(state.retry.step).toBe("unplanned");
  });
});
