// A hook's relation-set writes, committed with the hook (Juju's
// CommitHookChanges): all together, once, only if the hook succeeded. Each
// relation written gets one new settings version; a write that changes nothing
// bumps nothing (seed 002: "a null setting change can be safely ignored, and
// will not cause other units to react").
import { and, eq } from "drizzle-orm";
import { settingsWritten } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { relationScopes, relationSettings } from "../db/schema.js";
import type { ModelRow, UnitRow } from "./rows.js";
import type { Tx } from "./write/index.js";

/** One relation's writes: keys to set (an empty value deletes the key, as relation-set's does) and keys to delete. */
export interface SettingsWrite {
  relation: number;
  set?: readonly { key: string; value: string }[] | null;
  unset?: readonly string[] | null;
}

/** Bounds on what a hook writes. */
export const SETTINGS_LIMITS = { keyLength: 256, valueBytes: 64 * 1024, documentBytes: 256 * 1024 } as const;

const invalid = (message: string, details: Record<string, unknown> = {}) => new LifelineError("INVALID_ARGUMENT", message, details);

function checkKey(key: string, relation: number) {
  // Keys are what relation-set takes before "=": no "=", no spaces or control characters.
  if (!key || key.length > SETTINGS_LIMITS.keyLength || /[=\s\p{Cc}]/u.test(key))
    throw invalid(
      `relation ${relation}: invalid settings key "${key.slice(0, 100)}": 1 to ${SETTINGS_LIMITS.keyLength} characters, no "=" or spaces`,
      {
        relation,
      },
    );
}

/** Checks the writes before anything is read or written: what each relation's keys become (null: deleted). */
export function checkSettingsWrites(writes: readonly SettingsWrite[]): Map<number, Map<string, string | null>> {
  const byRelation = new Map<number, Map<string, string | null>>();
  for (const write of writes) {
    if (!Number.isInteger(write.relation) || write.relation < 0)
      throw new LifelineError("INVALID_ID", `invalid relation id ${write.relation}: expected a non-negative integer`);
    if (byRelation.has(write.relation)) throw invalid(`relation ${write.relation} is written more than once: give each relation once`);
    const keys = new Map<string, string | null>();
    const put = (key: string, value: string | null) => {
      checkKey(key, write.relation);
      if (keys.has(key))
        throw invalid(`relation ${write.relation}: key "${key}" is given more than once`, { relation: write.relation, key });
      if (value !== null && Buffer.byteLength(value, "utf8") > SETTINGS_LIMITS.valueBytes)
        throw invalid(`relation ${write.relation}: the value of "${key}" is over ${SETTINGS_LIMITS.valueBytes} bytes`, {
          relation: write.relation,
          key,
        });
      keys.set(key, value === "" ? null : value);
    };
    for (const { key, value } of write.set ?? []) put(key, value);
    for (const key of write.unset ?? []) put(key, null);
    byRelation.set(write.relation, keys);
  }
  return byRelation;
}

/** `current` with `changes` applied; null when nothing differs. (A Map, so keys such as "__proto__" are plain keys.) */
function applied(current: Record<string, string>, changes: Map<string, string | null>): Record<string, string> | null {
  const next = new Map(Object.entries(current));
  let differs = false;
  for (const [key, value] of changes) {
    if (value === null) differs = next.delete(key) || differs;
    else if (next.get(key) !== value) {
      next.set(key, value);
      differs = true;
    }
  }
  return differs ? Object.fromEntries(next) : null;
}

/**
 * Applies a succeeded hook's writes to the unit's own settings, relation by
 * relation: the unit must be in each relation's scope (NOT_IN_SCOPE otherwise).
 * Returns the relations whose settings changed.
 */
export async function applySettingsWrites(tx: Tx, model: ModelRow, unit: UnitRow, writes: readonly SettingsWrite[]): Promise<number[]> {
  const checked = checkSettingsWrites(writes);
  const written: number[] = [];
  for (const [relationId, changes] of checked) {
    const [member] = await tx.db
      .select({ relationId: relationScopes.relationId })
      .from(relationScopes)
      .where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.relationId, relationId), eq(relationScopes.unit, unit.name)));
    if (!member)
      throw new LifelineError(
        "NOT_IN_SCOPE",
        `unit ${unit.name} is not in the scope of relation ${relationId}: only a unit in a relation's scope writes settings there`,
        { relation: relationId },
      );
    const where = and(
      eq(relationSettings.modelId, model.id),
      eq(relationSettings.relationId, relationId),
      eq(relationSettings.unit, unit.name),
    );
    const [row] = await tx.db.select().from(relationSettings).where(where);
    const next = applied(row?.settings ?? {}, changes);
    if (!next) continue;
    const size = Buffer.byteLength(JSON.stringify(next), "utf8");
    if (size > SETTINGS_LIMITS.documentBytes)
      throw invalid(
        `unit ${unit.name}'s settings in relation ${relationId} would be ${size} bytes, over ${SETTINGS_LIMITS.documentBytes}`,
        {
          relation: relationId,
        },
      );
    const version = (row?.version ?? 0) + 1;
    if (row) await tx.db.update(relationSettings).set({ settings: next, version }).where(where);
    else await tx.db.insert(relationSettings).values({ modelId: model.id, relationId, unit: unit.name, settings: next, version });
    tx.record(model.id, settingsWritten(relationId, unit.name, version));
    written.push(relationId);
  }
  return written;
}
