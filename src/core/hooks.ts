// Charm hooks and their runs, in Juju's words (worker/uniter/hook, state/unit.go
// ResolvedMode): which hooks a charm may ship, how a run ends, and what
// `juju resolved` asks of a unit agent whose hook failed.

/** The hooks every charm may ship besides its relation hooks (Juju's unit hooks, leadership and upgrades included). */
export const unitHooks = [
  "install",
  "leader-elected",
  "leader-settings-changed",
  "config-changed",
  "start",
  "upgrade-charm",
  "update-status",
  "collect-metrics",
  "pre-series-upgrade",
  "post-series-upgrade",
  "stop",
  "remove",
] as const;
export type UnitHook = (typeof unitHooks)[number];

/** What `<endpoint>-relation-<kind>` hooks are run for. */
export const relationHookKinds = ["joined", "changed", "departed", "broken"] as const;
export type RelationHookKind = (typeof relationHookKinds)[number];

/**
 * How a hook run stands: running until its agent commits it. A run its agent
 * never committed (it restarted mid-hook and began another) is `interrupted`;
 * Juju treats such a hook as failed and runs it again.
 */
export const HookResult = {
  Running: "running",
  Succeeded: "succeeded",
  Failed: "failed",
  Skipped: "skipped",
  Interrupted: "interrupted",
  /** The charm shipped no such hook: a run earlier versions recorded. None is recorded now (missing-hooks.ts), as in Juju. */
  Missing: "missing",
} as const;
export type HookResult = (typeof HookResult)[keyof typeof HookResult];

/** What `juju resolved` asks of an agent in error: run the failed hook again, or mark it done without running it (`--no-retry`). */
export const ResolvedMode = { RetryHook: "retry-hook", SkipHook: "skip-hook" } as const;
export type ResolvedMode = (typeof ResolvedMode)[keyof typeof ResolvedMode];

/** The hook a unit agent's status is about (Juju's status data for a failed hook: hook, relation-id, remote-unit). */
export interface AgentStatusData {
  hook?: string;
  relationId?: number;
  remoteUnit?: string;
}
