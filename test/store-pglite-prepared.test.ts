// On PGlite the store prepares each statement once (src/db/pglite-statements.ts): PGlite's own
// query parses and plans every statement anew. These specs hold the prepared path to what
// PGlite's own query answers, and look at the backend's list of its prepared statements.
import { PGlite, type Results, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PREPARED_STATEMENTS, prepareStatements } from "../src/db/pglite-statements.js";
import { MAX_PREPARED_PARAMETERS } from "../src/db/prepared.js";

/** The session's prepared statements whose text mentions `marker`, read through PGlite's own query. */
const preparedMentioning = async (client: PGlite, marker: string) =>
  (await client.exec("select statement from pg_prepared_statements"))[0]!.rows
    .map((r) => String((r as { statement: string }).statement))
    .filter((s) => s.includes(marker));

describe("PGlite's statements, prepared once", () => {
  let plain: PGlite;
  let preparing: PGlite;
  beforeAll(async () => {
    [plain, preparing] = await Promise.all([PGlite.create(), PGlite.create()]);
    prepareStatements(preparing);
    for (const client of [plain, preparing])
      await client.exec("create table things (id serial primary key, name text unique not null, tags text[], data jsonb, at timestamptz)");
  });
  afterAll(async () => {
    await Promise.all([plain.close(), preparing.close()]);
  });

  /** Runs `text` on both clients; returns both answers. */
  const onBoth = async <T>(text: string, params: unknown[], options?: Parameters<PGlite["query"]>[2]) => {
    const answers: Results<T>[] = [];
    for (const client of [plain, preparing]) answers.push(await client.query<T>(text, params, options));
    return answers;
  };

  it("answers as PGlite's own query does: rows, fields and affected rows, in either row mode, every type parsed alike", async () => {
    const insert =
      "insert into things (name, tags, data, at) values ($1, $2, $3, $4), ($5, null, null, null) returning id, name, tags, data";
    const values = ["a", ["x", "y"], { deep: [1, { two: null }] }, "2026-12-07T10:00:00Z", "b"];
    const [inserted, insertedPrepared] = await onBoth(insert, values);
    expect(insertedPrepared).toEqual(inserted);
    expect(insertedPrepared!.affectedRows).toBe(2);
    const select = "select id, name, tags, data, at, count(*) over () as n, $1::bigint as big from things where name = any($2) order by id";
    // Drizzle's own options: its parsers keep timestamps as PostgreSQL wrote them.
    const keptAsText = { parsers: { [types.TIMESTAMPTZ]: (value: string) => value } };
    for (const rowMode of ["object", "array"] as const)
      for (const parsers of [{}, keptAsText]) {
        const [rows, rowsPrepared] = await onBoth(select, [2n ** 40n, ["a", "b"]], { rowMode, ...parsers });
        expect(rowsPrepared).toEqual(rows);
        expect(rowsPrepared!.rows).toHaveLength(2);
      }
  });

  it("a statement is parsed once: run again with other values, it is the same prepared statement", async () => {
    const text = "select name from things where id = $1 /* once */";
    await preparing.query(text, [1]);
    await preparing.query(text, [2]);
    expect(await preparedMentioning(preparing, "/* once */")).toHaveLength(1);
  });

  it(`a statement with more than ${MAX_PREPARED_PARAMETERS} parameters runs unprepared, so lists of every length do not each leave one behind`, async () => {
    const ids = Array.from({ length: MAX_PREPARED_PARAMETERS + 1 }, (_, i) => i);
    const text = `select count(*)::int as n from things where id in (${ids.map((i) => `$${i + 1}`).join(", ")}) /* long list */`;
    const [answer, answerPrepared] = await onBoth(text, ids);
    expect(answerPrepared).toEqual(answer);
    expect(await preparedMentioning(preparing, "/* long list */")).toEqual([]);
  });

  it("statements PostgreSQL does not plan (SET, SAVEPOINT, VACUUM) run as PGlite runs them, unprepared", async () => {
    await preparing.query("set application_name = 'prepared-spec'");
    expect((await preparing.query<{ application_name: string }>("show application_name")).rows).toEqual([
      { application_name: "prepared-spec" },
    ]);
    expect(await preparedMentioning(preparing, "application_name")).toEqual([]);
  });

  it("a refused statement gives the database's error, with its SQLSTATE and the statement, and the session goes on", async () => {
    const text = "insert into things (name) values ($1) /* refused */";
    const refused = await preparing.query(text, ["a"]).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "23505", query: text, params: ["a"] });
    await expect(preparing.query("select 1 as one where $1::int = 1 /* after */", [1])).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it("in a transaction: statements see its writes, and a rollback undoes them (prepared statements outlive it)", async () => {
    const text = "select count(*)::int as n from things where name = $1 /* in transaction */";
    await preparing.transaction(async (tx) => {
      await tx.query("insert into things (name) values ($1)", ["in-tx"]);
      expect((await tx.query<{ n: number }>(text, ["in-tx"])).rows).toEqual([{ n: 1 }]);
      await tx.rollback();
    });
    expect((await preparing.query<{ n: number }>(text, ["in-tx"])).rows).toEqual([{ n: 0 }]);
  });

  it("a statement outside a transaction waits for the transaction running to end rather than run inside it (PGlite is one session)", async () => {
    let end!: () => void;
    const ending = new Promise<void>((resolve) => {
      end = resolve;
    });
    let inserted!: () => void;
    const hasInserted = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = preparing.transaction(async (tx) => {
      await tx.query("insert into things (name) values ($1)", ["outside"]);
      inserted();
      await ending;
      await tx.rollback();
    });
    await hasInserted;
    let answered = false;
    const count = preparing.query<{ n: number }>("select count(*)::int as n from things where name = $1 /* outside */", ["outside"]);
    void count.then(() => {
      answered = true;
    });
    // Run inside the open transaction, it would be answered within a few turns of the loop, and count the row the
    // transaction then rolls back.
    for (let turn = 0; turn < 50 && !answered; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    end();
    await transaction;
    expect((await count).rows).toEqual([{ n: 0 }]);
  });

  it(`past ${MAX_PREPARED_STATEMENTS} statements kept, a new text runs unprepared`, async () => {
    const client = await PGlite.create();
    try {
      prepareStatements(client);
      for (let i = 0; i < MAX_PREPARED_STATEMENTS; i++) await client.query(`select $1::int + ${i} as n`, [1]);
      expect((await client.query<{ n: number }>(`select $1::int + ${MAX_PREPARED_STATEMENTS} as n`, [1])).rows).toEqual([
        { n: MAX_PREPARED_STATEMENTS + 1 },
      ]);
      expect(await preparedMentioning(client, `+ ${MAX_PREPARED_STATEMENTS} as n`)).toEqual([]);
      expect(await preparedMentioning(client, " as n")).toHaveLength(MAX_PREPARED_STATEMENTS);
    } finally {
      await client.close();
    }
  });
});
