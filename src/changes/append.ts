// The change log's write side. Changes are collected while a transaction runs
// and appended as its last statements: the model's revision counter is bumped
// once (taking the row lock late, so it is held briefly), and within a model
// commit order is revision order.
import type { Database } from "../db/connect.js";
import type { Statement } from "../db/transaction-runner.js";
import type { Change } from "./change.js";
import { quietFeed } from "./presence.js";
import type { EntityEvent } from "./stream-event.js";

export type { DbTx } from "../db/transaction-runner.js";

/** A change waiting to be appended, with the model whose log it goes to. */
export interface PendingChange {
  modelId: string;
  change: Change;
}

/**
 * The NOTIFY channel the log's tailers LISTEN on (src/changes/wakeup.ts). The payload is
 * only the model id: a wake-up, never data. Payloads are capped at 8000 bytes and lost
 * while a listener is disconnected, so readers always catch up from the table.
 */
export const CHANGES_CHANNEL = "lifeline_changes";

/** A transaction's change rows as they go: the statements it sends last, and its process's part once it committed. */
export interface Appended {
  statements: Statement[];
  /** Wakes this process's own feed when the statements went without NOTIFY; nothing otherwise. */
  committed(): void;
  /** Each model's row as the transaction left it (to_jsonb's text), by model id, once its statement has answered. */
  readonly modelRows: Map<string, string>;
}

/**
 * A write of a model's row folded into its append's revision bump, which then also checks the row: the columns it sets
 * (SQL names, with each value's type and its driver value), and the row it must find (to_jsonb's text less
 * compacted_through), or the statement fails (22012, as for a model that is gone) and writes nothing.
 */
export interface RowRewrite {
  modelId: string;
  set: readonly { column: string; type: string; value: unknown }[];
  expected: string;
}

/**
 * The change rows of a transaction on `db`: notified, unless this process's feed is the only one listening on the
 * database (presence.ts), which is then handed the rows in process once the transaction has committed, as the
 * statements gave them back numbered: the feed offers them to its streams without reading them again. With `rewrite`,
 * its model's statement also rewrites the model's row (RowRewrite).
 */
export function appendChanges(db: Database, pending: readonly PendingChange[], rewrite?: RowRewrite): Appended {
  const feed = quietFeed(db);
  const batches = appendBatches(pending, feed === null, rewrite);
  const appended = new Map<string, EntityEvent[]>();
  const modelRows = new Map<string, string>();
  for (const { modelId, rows, statement } of batches) {
    statement.answered = ([answer]) => {
      if (!answer) return;
      modelRows.set(modelId, String(answer.model_row));
      if (feed) appended.set(modelId, appendedEvents(rows, Number(answer.revision), String(answer.committed_at)));
    };
  }
  return {
    statements: batches.map((b) => b.statement),
    modelRows,
    committed: () => {
      if (!feed) return;
      for (const modelId of new Set(pending.map((p) => p.modelId))) {
        const events = appended.get(modelId);
        if (events) feed.handOff(modelId, events);
        else feed.wake(modelId);
      }
    },
  };
}

/**
 * The rows one append statement wrote, as the events the feed would read back: numbered up to `last`. The rows its JSON
 * parameter was made of, not that JSON parsed again (30 to 50 ms of the event loop for a group's thousands of rows).
 */
function appendedEvents(rows: readonly AppendedRow[], last: number, committedAt: string): EntityEvent[] {
  const at = new Date(committedAt);
  return rows.map((row, n) => ({ ...row, type: "change", revision: last - rows.length + 1 + n, committedAt: at }) as EntityEvent);
}

/**
 * One statement per model (in a fixed order, so two multi-model transactions cannot
 * deadlock on the counters): the model's revision counter bumped (the row lock taken late,
 * so it is held briefly), the changes numbered from it and appended, and, with `notify`, the wake-up,
 * which is delivered at commit, and only if the transaction commits. Without it the committing process
 * wakes its own feed, which is then the only one listening (presence.ts). They run last in their transaction
 * (src/model/write/).
 */
function appendBatches(pending: readonly PendingChange[], notify: boolean, rewrite?: RowRewrite): AppendBatch[] {
  const byModel = new Map<string, Change[]>();
  for (const { modelId, change } of pending) {
    const list = byModel.get(modelId) ?? [];
    list.push(change);
    byModel.set(modelId, list);
  }
  return [...byModel.keys()].sort().map((modelId) => {
    const list = byModel.get(modelId)!;
    const rows = list.map(
      (c) => ({ kind: c.kind, entity: c.entity, life: c.life, removed: c.removed, fields: written(c.fields) }) as AppendedRow,
    );
    const params: unknown[] = [list.length, modelId, JSON.stringify(rows), ...(notify ? [CHANGES_CHANNEL] : [])];
    const statement =
      rewrite?.modelId === modelId ? rewriting(params, notify, rewrite) : { text: notify ? APPEND : APPEND_QUIETLY, params };
    return { modelId, rows, statement };
  });
}

/** A change as its row is written: its envelope's kind, entity, life and removal, and its fields. */
type AppendedRow = Omit<EntityEvent, "type" | "revision" | "committedAt">;

/** One model's append: its rows, and the statement that writes them. */
interface AppendBatch {
  modelId: string;
  rows: AppendedRow[];
  statement: Statement;
}

/**
 * A change's fields as the log keeps them: a field left undefined is not written (JSON has no undefined), so the event
 * handed to this process's feed names the same fields as the row read back would (a stream's `changed` lists them).
 */
function written(fields: object): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) kept[name] = value;
  return kept;
}

/** The append statement with `rewrite`'s columns set by its bump, and its row checked there. */
function rewriting(params: unknown[], notify: boolean, { set, expected }: RowRewrite): Statement {
  const n = params.length;
  const assignments = set.map((c, k) => `, ${quoted(c.column)} = $${n + 1 + k}::${c.type}`).join("");
  const guard = ` and to_jsonb(models) - 'compacted_through' = $${n + set.length + 1}::jsonb`;
  const key = `${notify}${assignments}`;
  let text = rewritingTexts.get(key);
  if (!text) {
    text = append(notify, assignments, guard);
    rewritingTexts.set(key, text);
  }
  return { text, params: [...params, ...set.map((c) => c.value), expected] };
}

/** Each rewrite's statement text, by the columns it sets: the same text is prepared once per connection. */
const rewritingTexts = new Map<string, string>();

const quoted = (column: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`not a column name: ${column}`);
  return `"${column}"`;
};

/**
 * $1: how many changes, $2: the model, $3: the changes (a JSON array), and with `notify` $4: the NOTIFY channel;
 * `set` and `guard` add to the bump's SET and WHERE (rewriting).
 */
const append = (notify: boolean, set = "", guard = "") => `
  with bump as (
    update models set revision = revision + $1${set} where id = $2${guard}
    returning revision, to_jsonb(models) - 'compacted_through' as model_row
  ), appended as (
    insert into changes (model_id, revision, kind, entity, life, removed, fields)
    select $2, bump.revision - $1 + c.n, c.kind, c.entity, c.life::life, c.removed, c.fields
    from bump, rows from (jsonb_to_recordset($3::jsonb) as (kind text, entity text, life text, removed boolean, fields jsonb))
      with ordinality as c(kind, entity, life, removed, fields, n)
  )
  -- A model gone from inside its own transaction cannot be: every writer holds its row lock.
  -- Were it gone, dividing by its missing row's count fails the statement, and so the transaction; so does a
  -- rewrite's row not found as expected.
  -- The model's row as the transaction leaves it, but for the log's compaction floor: what this process's next writer
  -- of the model expects (model-lock.ts).
  select bump.revision, bump.model_row::text as model_row${notify ? ", pg_notify($4, $2::text)" : ", to_json(now()) #>> '{}' as committed_at"}
  from (select count(*)::int as n from bump) as present left join bump on true
  where 1 / present.n = 1`;
const APPEND = append(true);
const APPEND_QUIETLY = append(false);
