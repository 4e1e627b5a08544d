// PGlite, with every statement prepared once and its plan kept, as the store does on a
// server (prepared.ts).
//
// PGlite's `query` sends each statement unnamed: Parse, Describe, Bind, Describe, Execute
// and Sync, each a call of its own into the WebAssembly backend, which parses and plans the
// statement afresh every time. Planning is most of a statement's cost there: a unit agent's
// read of a machine's subordinates took 1.0 ms that way against 0.13 ms prepared, and
// settling 1,000 units cost the server 43 ms of CPU a unit unprepared, 24 prepared
// (docs/decisions.md, "PGlite plans once"). Here a statement is parsed and described once,
// under a name, the first time its text is seen; after that one call into the backend binds
// and executes it. Results are read as PGlite reads them (its parsers and serializers, its
// row modes), so Drizzle sees no difference.
//
// As on a server, statements whose parameter count varies with the input (lists of a batch
// past MAX_PREPARED_PARAMETERS) run unprepared, which bounds how many PGlite's one session
// keeps; so do COPY's (a blob), which PGlite's own `query` handles.
import { type PGlite, protocol, type QueryOptions, type Results, type Transaction, types } from "@electric-sql/pglite";
import { MAX_PREPARED_PARAMETERS } from "./prepared.js";

const { serialize } = protocol;

/**
 * The most statements kept prepared: the model's statements number a few hundred; past this, a new text (one with its
 * values written into it, say) runs unprepared, so that nothing grows the backend's statements without bound.
 */
export const MAX_PREPARED_STATEMENTS = 2000;

interface Field {
  name: string;
  dataTypeID: number;
}

/** A statement the backend holds under `name`: its parameters' types and its rows' fields, as Describe told them. */
interface Prepared {
  name: string;
  parameterTypes: number[];
  fields: Field[];
}

type BackendMessage = { name: string } & Record<string, unknown>;

/** What PGlite has beyond its interface: the locks its own queries take, one for a statement, one for a transaction. */
interface PGliteInternals {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Rows, affected count and fields, as PGlite's own `query` makes them of the backend's messages. Each field's parser is
 * found once: the query's, else the client's, else PGlite's default, as PGlite's `parseType` finds it in the client's
 * parsers merged with the query's. (Merging them, as PGlite does for every query, copies its 318 parsers: 92 µs.)
 */
function results<T>(messages: BackendMessage[], fields: Field[], client: PGlite, options: QueryOptions | undefined): Results<T> {
  const parse = fields.map(({ dataTypeID: type }) => options?.parsers?.[type] ?? client.parsers[type] ?? types.parsers[type]);
  const rows: unknown[] = [];
  const done = messages.find((m) => m.name === "commandComplete");
  for (const message of messages) {
    if (message.name !== "dataRow") continue;
    const values = (message.fields as (string | null)[]).map((value, i) =>
      value === null ? null : parse[i] ? parse[i](value, fields[i]!.dataTypeID) : value,
    );
    rows.push(options?.rowMode === "array" ? values : Object.fromEntries(values.map((value, i) => [fields[i]!.name, value])));
  }
  // "INSERT 0 2", "UPDATE 3", "SELECT 1": the command, and the rows it touched.
  const words = done ? (done.text as string).split(" ") : [];
  const count = Number.parseInt(words.at(-1) ?? "", 10);
  const affects = ["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(words[0] ?? "");
  return {
    rows: rows as T[],
    fields,
    ...(done ? { command: words[0] } : {}),
    affectedRows: affects ? count : 0,
    ...(Number.isNaN(count) ? {} : { rowCount: count }),
  } as Results<T>;
}

/**
 * Statements the backend plans: the rest (SET, SAVEPOINT, VACUUM, …) gain nothing from being prepared, and some may not
 * be (SET TRANSACTION must come before a transaction's first snapshot, which binding a prepared statement takes).
 */
const planned = (text: string) => /^\s*(select|insert|update|delete|with|values)\b/i.test(text);

/** Replaces the client's `query`, and its transactions', with one that prepares each statement once. */
export function prepareStatements(client: PGlite): void {
  const internals = client as unknown as PGliteInternals;
  const prepared = new Map<string, Prepared>();
  /** Names are never used twice: a statement whose Describe failed after its Parse may still hold its name. */
  let named = 0;
  const run = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false }) as Promise<BackendMessage[]>;

  /** The statement for `text`, parsed and described on its first use (within the client's lock). */
  async function statementFor(text: string, options: QueryOptions | undefined): Promise<Prepared> {
    const known = prepared.get(text);
    if (known) return known;
    const name = `lifeline_${named++}`;
    const described = await run(
      Buffer.concat([
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
    );
    const parameters = described.find((m) => m.name === "parameterDescription");
    const row = described.find((m) => m.name === "rowDescription");
    const statement: Prepared = {
      name,
      parameterTypes: (parameters?.dataTypeIDs as number[] | undefined) ?? [],
      fields: ((row?.fields as Field[] | undefined) ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    };
    prepared.set(text, statement);
    return statement;
  }

  async function preparedQuery<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    return internals._runExclusiveQuery(async () => {
      try {
        return await bindAndExecute<T>(text, params, options);
      } catch (error) {
        // As PGlite's own query, the database's error says which statement it was about.
        if (error instanceof protocol.messages.DatabaseError) Object.assign(error, { query: text, params, queryOptions: options });
        throw error;
      }
    });
  }

  async function bindAndExecute<T>(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const statement = await statementFor(text, options);
    const values = params.map((value, i) => {
      if (value == null) return null;
      const type = statement.parameterTypes[i]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await run(
      Buffer.concat([serialize.bind({ statement: statement.name, values: values as string[] }), serialize.execute({}), serialize.sync()]),
    );
    // As PGlite's own query: outside a transaction, what it wrote reaches the file system now.
    if (!client.isInTransaction()) await client.syncToFs();
    return results<T>(messages, statement.fields, client, options);
  }

  const full = (text: string) => prepared.size >= MAX_PREPARED_STATEMENTS && !prepared.has(text);
  const preparing =
    (fallback: PGlite["query"], exclusive: <T>(query: () => Promise<Results<T>>) => Promise<Results<T>>) =>
    <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> =>
      params.length > MAX_PREPARED_PARAMETERS || options?.blob || !planned(text) || full(text)
        ? fallback<T>(text, params, options)
        : exclusive(() => preparedQuery<T>(text, params, options));

  // As PGlite's own query: a statement outside a transaction waits for the transaction running to end, or it would run
  // inside it (PGlite is one session).
  client.query = preparing(client.query.bind(client), (query) => internals._runExclusiveTransaction(query)) as PGlite["query"];
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const query = preparing(tx.query, (query) => query());
      tx.query = (async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        // As PGlite's own: a closed transaction runs nothing more.
        if (tx.closed) throw new Error("Transaction is closed");
        return query<R>(text, params, options);
      }) as Transaction["query"];
      return callback(tx);
    });
}
