// How a failure reads in a log line (src/db/sql-state.ts failureText): what PostgreSQL said and its SQLSTATE, not
// Drizzle's wrapper, which repeats the statement and every parameter and hides the cause.
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { failureText } from "../src/db/sql-state.js";
import { openTestStore } from "./support/store.js";

it("names PostgreSQL's message and SQLSTATE, not the statement Drizzle wraps them in", async () => {
  const store = await openTestStore();
  try {
    const failure = await store.db.execute(sql`select 1 / ${0}::int`).then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(failure)).toContain("Failed query");
    expect(failureText(failure)).toBe("division by zero (SQLSTATE 22012)");
  } finally {
    await store.close();
  }
});

it("reads a plain error as its message", () => {
  expect(failureText(new Error("socket closed"))).toBe("socket closed");
});
