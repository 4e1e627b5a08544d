// What the API reads of unit agents: their state documents (batched, for the
// dataloader) and their hook runs, in keyset pages newest first.

import { and, asc, desc, eq, gt, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { hookRuns, unitAgentStates } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { AgentState } from "./agent-state.js";
import { cursorValue } from "./cursor.js";
import type { HookRunRow } from "./rows.js";

/** Keys of model-scoped entities, as read.ts spells them: "<model uuid>:<id>". */
const keyOf = (modelId: string, id: string) => `${modelId}:${id}`;

// One text whatever the number of units (an array parameter), built once: every unit agent reads its own at start.
const agentStateRows = statement(["modelId", "names"], (db, p) =>
  db
    .select()
    .from(unitAgentStates)
    .where(and(eq(unitAgentStates.modelId, p.modelId), sql`${unitAgentStates.unit} = any(${p.names})`)),
);

/** Unit keys ("<model uuid>:<unit>") → each unit agent's state document, null when its agent has saved none. */
export async function agentStatesOf(db: Database, unitKeys: readonly string[]): Promise<(AgentState | null)[]> {
  const byModel = new Map<string, string[]>();
  for (const key of unitKeys) {
    const at = key.indexOf(":");
    byModel.set(key.slice(0, at), [...(byModel.get(key.slice(0, at)) ?? []), key.slice(at + 1)]);
  }
  const found = new Map<string, AgentState>();
  for (const [modelId, names] of byModel) {
    const rows = await agentStateRows(db, { modelId, names });
    for (const row of rows) found.set(keyOf(row.modelId, row.unit), row.state);
  }
  return unitKeys.map((key) => found.get(key) ?? null);
}

/** A page of a model's hook runs, or one unit's, newest first (oldest first when `inverted`); cursors are run ids. */
export async function hookRunsPage(
  db: Database,
  of: { modelId: string; unit?: string | null },
  window: { after?: string | undefined; before?: string | undefined; limit: number; inverted: boolean },
): Promise<HookRunRow[]> {
  const bounds: (SQL | undefined)[] = [eq(hookRuns.modelId, of.modelId), of.unit ? eq(hookRuns.unit, of.unit) : undefined];
  const after = cursorValue(window.after);
  const before = cursorValue(window.before);
  // Newest first: "after" a run means older than it.
  if (after !== undefined) bounds.push(lt(hookRuns.id, after));
  if (before !== undefined) bounds.push(gt(hookRuns.id, before));
  return db
    .select()
    .from(hookRuns)
    .where(and(...bounds))
    .orderBy(window.inverted ? asc(hookRuns.id) : desc(hookRuns.id))
    .limit(window.limit);
}
