// What a hook call's checks need of its unit's charm, read once a process rather than on every call: the charm's row
// holds the text of every hook it ships, and beginHook and recordMissingHooks read it for each hook a unit passes.
// issueUnitCredentials, which reads it for the agent's start-up, leaves it known for the agent's first hook call.
//
// A unit's charm never changes: an application's charm is the one it was deployed with, and a unit is of one
// application for its life. Units are known here by model id and name, checked against the unit's seq (a bigserial:
// never handed out twice, a rolled-back add's included), so a name given again to another unit finds nothing.
import { charmMetadata } from "./charm.js";
import type { CharmRow, UnitRow } from "./rows.js";

/** A unit's charm as a hook's checks see it: its name, its endpoints and the hooks it ships. */
export interface CharmHooks {
  charm: string;
  endpoints: string[];
  ships: (hook: string) => boolean;
}

/** Units remembered at most; past it, the oldest are forgotten (and read again when their agents call). */
const MOST = 100_000;

/** By model id and unit name: the unit's seq and its charm's hooks (one object per charm, shared by its units). */
const units = new Map<string, { seq: number; hooks: CharmHooks }>();
/** By model id and charm url. */
const charms = new Map<string, CharmHooks>();

const unitKey = (modelId: string, unit: string) => `${modelId}\u0000${unit}`;

/** Whether the charm of the unit by this name is known here: then a hook call need not read it. */
export function knowsCharmOf(modelId: string, unit: string): boolean {
  return units.has(unitKey(modelId, unit));
}

/** The charm's hooks of `unit`, as remembered (undefined: read it, with charmsOfUnits, and give it to charmHooksRead). */
export function charmHooksOf(unit: UnitRow): CharmHooks | undefined {
  const known = units.get(unitKey(unit.modelId, unit.name));
  return known?.seq === unit.seq ? known.hooks : undefined;
}

/** The hooks of `charm`, `unit`'s, read from the store: remembered for the unit's later calls. */
export function charmHooksRead(unit: UnitRow, charm: CharmRow): CharmHooks {
  const charmKey = `${charm.modelId}\u0000${charm.url}`;
  let hooks = charms.get(charmKey);
  if (!hooks) {
    const shipped = new Set(Object.keys(charm.hooks)); // their names, not their texts
    hooks = {
      charm: charm.name,
      endpoints: charmMetadata(charm).endpoints.map((e) => e.name),
      ships: (hook) => shipped.has(hook),
    };
    remember(charms, charmKey, hooks);
  }
  remember(units, unitKey(unit.modelId, unit.name), { seq: unit.seq, hooks });
  return hooks;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key); // a key set again goes to the end: the newest
  map.set(key, value);
  if (map.size > MOST) map.delete(map.keys().next().value!);
}
