// DATABASE_URL is checked when the server's configuration is read: one it cannot connect with ends start-up with what
// it must look like, never the driver's "TypeError: Invalid URL".
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/server/config.js";

const storeOf = (url: string) => configFromEnv({ DATABASE_URL: url }).store;

describe("DATABASE_URL", () => {
  it("one without a host is refused with the form it must take, its password not repeated", () => {
    expect(() => storeOf("postgres://admin:s3cret@/lifeline")).toThrow(
      'DATABASE_URL must be a PostgreSQL connection URL, postgres://user[:password]@host[:port][,host2[:port]]/database, got "postgres://admin:***@/lifeline"',
    );
  });

  it("one of another scheme is refused", () => {
    expect(() => storeOf("mysql://root@localhost/lifeline")).toThrow(/^DATABASE_URL must be a PostgreSQL connection URL/);
  });

  it("one with no host at all is taken as it is: the driver connects to localhost", () => {
    expect(storeOf("postgres:///lifeline")).toMatchObject({ databaseUrl: "postgres:///lifeline" });
  });

  it("one naming its hosts is taken as it is, a list of hosts and parameters included", () => {
    const url = "postgresql://app:pw@db1:5432,db2:5433/lifeline?target_session_attrs=read-write";
    expect(storeOf(url)).toMatchObject({ databaseUrl: url });
    expect(storeOf("postgres://postgres@127.0.0.1:5432/lf")).toMatchObject({ databaseUrl: "postgres://postgres@127.0.0.1:5432/lf" });
  });
});
