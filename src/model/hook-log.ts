// A hook's juju-log lines (issue 35): its agent sends each one as the hook logs
// it, and the server keeps it with the run, so the line outlives the unit with its
// run, and streams at once (a HOOK row carrying the line: `debug-log` shows it live).
import { and, eq, isNull, sql } from "drizzle-orm";
import { hookLogAppended } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { HookResult } from "../core/hooks.js";
import { hookLog, hookRuns } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { unitOperationReading } from "./lookup.js";
import type { HookRunRow } from "./rows.js";
import type { InModel } from "./write/index.js";

/**
 * Lines kept per run: past it a run's lines are counted, not kept. With HOOK_LOG_LINE_LIMIT, a run's lines take at
 * most ~100 KB, and a unit name's history (HOOK_RUNS_KEPT runs) at most ~10 MB; a typical hook logs a few short lines.
 */
export const HOOK_LOG_LINES_KEPT = 100;
/** The longest line kept, in characters: a longer one is cut. */
export const HOOK_LOG_LINE_LIMIT = 1000;

/** juju-log's levels (loggo's names). */
export const HOOK_LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] as const;
export type HookLogLevel = (typeof HOOK_LOG_LEVELS)[number];

export interface LogHookInput extends InModel {
  unit: string;
  /** The run's id, as beginHook returned it. */
  run: string;
  level: HookLogLevel;
  message: string;
}

/** The unit's live run by id, with the transaction's now(): the time the line is kept at. */
const liveRun = statement(["modelId", "unit", "id"], (db, p) =>
  db
    .select({ run: hookRuns, now: sql<Date>`now()`.mapWith(hookRuns.startedAt) })
    .from(hookRuns)
    .where(and(eq(hookRuns.modelId, p.modelId), eq(hookRuns.unit, p.unit), eq(hookRuns.id, p.id), isNull(hookRuns.unitRemovedAt))),
);

const countLine = statement(["id"], (db, p) =>
  db
    .update(hookRuns)
    .set({ logLines: sql`${hookRuns.logLines} + 1` })
    .where(eq(hookRuns.id, p.id)),
);

const insertLine = statement(["runId", "seq", "level", "message"], (db, p) =>
  db.insert(hookLog).values({ runId: p.runId, seq: p.seq, level: p.level, message: p.message }),
);

function parseRunId(id: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(id))
    throw new LifelineError("INVALID_ID", `invalid hook run id "${id.slice(0, 40)}": a run's id as beginHook returned it`);
  return Number(id);
}

function checkLine(input: LogHookInput): void {
  parseRunId(input.run);
  if (!HOOK_LOG_LEVELS.includes(input.level))
    throw new LifelineError(
      "INVALID_ARGUMENT",
      `invalid log level "${String(input.level).slice(0, 40)}": one of ${HOOK_LOG_LEVELS.join(", ")}`,
    );
}

/**
 * The unit's agent sends a line its running hook logged (juju-log). Kept with the run, up to HOOK_LOG_LINES_KEPT lines
 * of HOOK_LOG_LINE_LIMIT characters (a longer one cut), and recorded as a HOOK row carrying it; past the bound it is
 * only counted. True when kept. NOT_FOUND for a run not of the unit, HOOK_RUN_ENDED for one its agent has committed.
 */
export const logHook = unitOperationReading(
  "any",
  async (tx, model, input: LogHookInput) => (await liveRun(tx.db, { modelId: model.id, unit: input.unit, id: parseRunId(input.run) }))[0],
  async (tx, model, unit, input, read): Promise<boolean> => {
    if (!read)
      throw new LifelineError("NOT_FOUND", `hook run ${input.run} of unit ${unit.name} not found in model "${model.name}"`, {
        kind: "hook run",
        id: input.run,
      });
    const { run, now } = read;
    if (run.result !== HookResult.Running)
      throw new LifelineError(
        "HOOK_RUN_ENDED",
        `hook run ${run.id} ("${run.hook}") of unit ${unit.name} has already ended: ${run.result}`,
        {
          result: run.result,
        },
      );
    const counted: HookRunRow = { ...run, logLines: run.logLines + 1 };
    tx.defer(countLine(tx.db, { id: run.id }));
    if (counted.logLines > HOOK_LOG_LINES_KEPT) return false;
    const message = input.message.slice(0, HOOK_LOG_LINE_LIMIT);
    tx.defer(insertLine(tx.db, { runId: run.id, seq: counted.logLines, level: input.level, message }));
    tx.record(model.id, hookLogAppended(counted, [{ level: input.level, message, loggedAt: now.toISOString() }]));
    return true;
  },
  checkLine,
);
