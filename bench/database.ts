// Every benchmark runs on a database of its own, created on the PostgreSQL server
// BENCH_DATABASE_URL names (the machine's own on 127.0.0.1 by default) and dropped
// at the end whatever happened. Benchmarks only talk to a server on this machine:
// their figures are ratios to that server, measured in the same run.
import postgres from "postgres";

export const adminUrl = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

if (!["127.0.0.1", "localhost", "[::1]"].includes(adminUrl.hostname)) {
  console.error(`bench: refusing ${adminUrl.hostname}: the benchmark only talks to loopback addresses`);
  process.exit(2);
}

export interface BenchDatabase {
  name: string;
  url: URL;
  /** Drops the database (with force: a server that did not stop still holds connections) and closes the admin connection. */
  drop(): Promise<void>;
}

/** Creates `lifeline_bench_<kind>_<pid>`. */
export async function createBenchDatabase(kind: string): Promise<BenchDatabase> {
  const name = `lifeline_bench_${kind}_${process.pid}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url,
    async drop() {
      await admin.unsafe(`drop database if exists "${name}" with (force)`).catch((e) => console.error("bench: could not drop", name, e));
      await admin.end({ timeout: 5 });
    },
  };
}
