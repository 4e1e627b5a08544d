// A unit agent's progress, kept on the server (the seeds' hardware-failure BUG,
// fixed as Juju 2.8 did: the uniter's state lives on the controller). The
// document is the agent's own (which hooks ran, each relation's members and
// settings versions, the operation under way); Lifeline stores it whole, bounds
// its size, and gives it back to whichever agent runs the unit next.
import { sql } from "drizzle-orm";
import { LifelineError } from "../core/errors.js";
import { unitAgentStates } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { unitAlone } from "./footprint.js";
import { unitOperation } from "./lookup.js";
import type { ModelRow } from "./rows.js";
import type { InModel, Tx } from "./write/index.js";

/** The largest state document, as JSON text (UTF-8). */
export const AGENT_STATE_LIMIT = 256 * 1024;

export type AgentState = Record<string, unknown>;

/** A state document found acceptable: its JSON text, stringified once for the check and stored as it is. */
export interface CheckedAgentState {
  readonly json: string;
}

/** The document's text, or INVALID_ARGUMENT when it is not a JSON object or too big (checked before anything is written). */
export function checkAgentState(state: unknown): CheckedAgentState {
  if (typeof state !== "object" || state === null || Array.isArray(state))
    throw new LifelineError("INVALID_ARGUMENT", "a unit agent's state is a JSON object");
  const json = JSON.stringify(state);
  const size = Buffer.byteLength(json, "utf8");
  if (size > AGENT_STATE_LIMIT)
    throw new LifelineError("INVALID_ARGUMENT", `a unit agent's state is at most ${AGENT_STATE_LIMIT} bytes of JSON, got ${size}`, {
      limit: AGENT_STATE_LIMIT,
      size,
    });
  return { json };
}

// The text goes in as it is: the jsonb column's own mapping would stringify each document a second time.
const upsertAgentStates = statement(["modelId", "units", "states"], (db, p) =>
  db
    .insert(unitAgentStates)
    .select(
      sql`select ${p.modelId}::uuid, given.unit, given.state::jsonb, now()
        from unnest(${p.units}::text[], ${p.states}::text[]) as given(unit, state)`,
    )
    .onConflictDoUpdate({
      target: [unitAgentStates.modelId, unitAgentStates.unit],
      set: { state: sql`excluded.state`, updatedAt: sql`now()` },
    }),
);

/** Replaces the unit's document (sent with the next statement: nothing waits for the answer). */
export function saveAgentState(tx: Tx, model: ModelRow, unit: string, state: CheckedAgentState): void {
  saveAgentStates(tx, model, [{ unit, state }]);
}

/** Replaces each unit's document, all in one statement sent with the next (nothing waits for the answer). */
export function saveAgentStates(tx: Tx, model: ModelRow, saved: readonly { unit: string; state: CheckedAgentState }[]): void {
  if (!saved.length) return;
  tx.defer(
    upsertAgentStates(tx.db, {
      modelId: model.id,
      units: saved.map((s) => s.unit),
      states: saved.map((s) => s.state.json),
    }),
  );
}

export interface UnitAgentStateInput extends InModel {
  unit: string;
  state: Record<string, unknown>;
}

/** The agent saves its state between hooks (after entering a scope, say); beginHook and commitHook save it too. */
export const setUnitAgentState = unitOperation(
  "any",
  async (tx, model, unit, input: UnitAgentStateInput) => {
    saveAgentState(tx, model, unit.name, checkAgentState(input.state));
    return unit;
  },
  undefined,
  unitAlone,
);
