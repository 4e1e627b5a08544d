// `lifeline debug-log`'s lines from the stream's HOOK events (src/cli/debug-log-lines.ts), as Juju's debug-log prints a
// unit agent's "skipped missing hook" lines: one line a run, however the stream brought the runs.
import { describe, expect, it } from "vitest";
import { LiveLines } from "../src/cli/debug-log-lines.js";
import type { ChangeEventFragment } from "../src/client/graphql.js";

const AT = "2026-11-28T03:00:00.000Z";

/** A HOOK event as the stream sends one, for wordpress/0's run `id`. */
function hookEvent(hook: Partial<NonNullable<ChangeEventFragment["hook"]>>): ChangeEventFragment {
  return {
    type: "CHANGE",
    revision: "7",
    kind: "HOOK",
    entity: "wordpress/0",
    life: null,
    removed: false,
    changed: Object.keys(hook),
    hook: {
      unitName: "wordpress/0",
      applicationName: "wordpress",
      id: "3",
      hook: null,
      relation: null,
      remoteUnit: null,
      result: null,
      message: null,
      startedAt: AT,
      endedAt: AT,
      logged: null,
      missing: null,
      ...hook,
    },
  } as ChangeEventFragment;
}

describe("debug-log's lines from HOOK events", () => {
  it("a recordMissingHooks call's one event: a warning line for each run it recorded, in order", () => {
    const event = hookEvent({
      id: "3",
      hook: "db-relation-changed",
      result: "MISSING",
      relation: 4,
      remoteUnit: "mysql/0",
      missing: [
        { id: "1", hook: "install", relation: null, remoteUnit: null },
        { id: "2", hook: "db-relation-joined", relation: 4, remoteUnit: "mysql/0" },
        { id: "3", hook: "db-relation-changed", relation: 4, remoteUnit: "mysql/0" },
      ],
    });
    const lines = new LiveLines().of(event, AT);
    expect(lines.map((l) => `${l.entity} ${l.level} ${l.message}`)).toEqual([
      'unit-wordpress-0 WARNING "install" hook missing from its charm',
      'unit-wordpress-0 WARNING "db-relation-joined" hook (relation 4, mysql/0) missing from its charm',
      'unit-wordpress-0 WARNING "db-relation-changed" hook (relation 4, mysql/0) missing from its charm',
    ]);
    // Each its own line: read twice, the same keys; never one key for two runs.
    expect(new Set(lines.map((l) => l.key)).size).toBe(3);
  });

  it("any other run's event: one line for its start or its end", () => {
    expect(new LiveLines().of(hookEvent({ hook: "install", result: "SUCCEEDED", message: "" }), AT).map((l) => l.message)).toEqual([
      'ran "install" hook',
    ]);
  });
});
