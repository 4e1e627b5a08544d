// On PostgreSQL the store prepares its statements (src/db/prepared.ts): one round trip a
// statement instead of two. These specs look at the server's own list of the session's
// prepared statements, from inside the transaction that ran them.
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, rowsOf, type Store } from "../src/db/connect.js";
import { MAX_PREPARED_PARAMETERS } from "../src/db/prepared.js";
import { models } from "../src/db/schema.js";
import { addModel } from "../src/model/index.js";
import { onPostgres, uniqueName } from "./support/store.js";

describe.skipIf(!onPostgres)("prepared statements (PostgreSQL only; PGlite runs in-process, with no round trips to save)", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ databaseUrl: process.env.DATABASE_URL!, maxConnections: 2 });
  });
  afterAll(() => store.close());

  /** The statements prepared on the transaction's connection whose text mentions `marker`. */
  const preparedOnConnection = async (tx: Pick<Store["db"], "execute">, marker: string) =>
    rowsOf<{ statement: string }>(await tx.execute(sql`select statement from pg_prepared_statements`))
      .map((r) => r.statement)
      .filter((s) => s.includes(marker));

  it("a statement with parameters, run in a transaction, is prepared on its connection and sees the transaction's writes", async () => {
    const name = uniqueName("prep");
    await store.db
      .transaction(async (tx) => {
        await tx.insert(models).values({ name, defaultSeries: "jammy" });
        // The write above is uncommitted: only a statement run on the transaction's own connection sees it.
        const [found] = await tx.select({ id: models.id, name: models.name }).from(models).where(eq(models.name, name));
        expect(found?.name).toBe(name);
        expect(await preparedOnConnection(tx, `"models"."name" = $1`)).not.toEqual([]);
        tx.rollback();
      })
      .catch((error) => {
        if (!String(error).includes("Rollback")) throw error;
      });
    expect(await store.db.select().from(models).where(eq(models.name, name))).toEqual([]);
  });

  it(`a statement with more than ${MAX_PREPARED_PARAMETERS} parameters runs unprepared, so lists of every length do not each leave a statement behind`, async () => {
    const model = await addModel(store.db, { name: uniqueName("prep") });
    const names = Array.from({ length: MAX_PREPARED_PARAMETERS + 1 }, (_, i) => (i === 0 ? model.name : `absent-${i}`));
    await store.db.transaction(async (tx) => {
      const found = await tx.select({ id: models.id }).from(models).where(inArray(models.name, names));
      expect(found).toEqual([{ id: model.id }]);
      expect(await preparedOnConnection(tx, `$${MAX_PREPARED_PARAMETERS + 1})`)).toEqual([]);
    });
  });
});
