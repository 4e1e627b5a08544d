// What holds each Dying entity. Blockers are not in the change stream: the page reads them again (debounced) after a
// change touches a Dying entity, for every entity then Dying or Dead.
import type { Client } from "graphql-ws";
import {
  StatusPageApplicationBlockersDocument,
  type StatusPageBlockerFragment,
  StatusPageMachineBlockersDocument,
  StatusPageModelBlockersDocument,
  StatusPageRelationBlockersDocument,
  StatusPageUnitBlockersDocument,
} from "../client/graphql.js";
import { query } from "./connection.js";
import type { Kind, ModelState } from "./model-state.js";

export interface Held {
  kind: Kind | "model";
  id: string;
  blockers: StatusPageBlockerFragment[];
}

/** At most this many entities are asked about in one read: a mass removal shows its first ones. */
const MAX_ASKED = 40;

const dying = (life: string | null) => life === "DYING" || life === "DEAD";

/** Reads the blockers of every Dying entity the state holds (and the model's, when `modelDying`). */
export async function readBlockers(client: Client, model: string, state: ModelState, modelDying: boolean): Promise<Held[]> {
  const asks: Promise<Held | null>[] = [];
  const ask = (kind: Held["kind"], id: string, read: () => Promise<StatusPageBlockerFragment[] | undefined>) =>
    asks.length < MAX_ASKED &&
    asks.push(
      read().then(
        (blockers) => (blockers ? { kind, id, blockers } : null),
        () => null,
      ),
    );
  if (modelDying) ask("model", model, async () => (await query(client, StatusPageModelBlockersDocument, { model })).model?.blockers);
  for (const a of state.tables.application.values())
    if (dying(a.life))
      ask(
        "application",
        a.id,
        async () => (await query(client, StatusPageApplicationBlockersDocument, { model, name: a.id })).model?.application?.blockers,
      );
  for (const u of state.tables.unit.values())
    if (dying(u.life))
      ask("unit", u.id, async () => (await query(client, StatusPageUnitBlockersDocument, { model, name: u.id })).model?.unit?.blockers);
  for (const m of state.tables.machine.values())
    if (dying(m.life))
      ask(
        "machine",
        m.id,
        async () => (await query(client, StatusPageMachineBlockersDocument, { model, id: m.id })).model?.machine?.blockers,
      );
  for (const r of state.tables.relation.values())
    if (dying(r.life) && r.info.id != null)
      ask(
        "relation",
        r.info.key ?? r.id,
        async () => (await query(client, StatusPageRelationBlockersDocument, { model, id: r.info.id! })).model?.relation?.blockers,
      );
  return (await Promise.all(asks)).filter((held): held is Held => held !== null);
}
