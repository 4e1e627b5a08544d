// The yardstick: this machine's raw PostgreSQL single-row insert, measured in the same
// run as the streams, with the same driver. Rates and latencies of Lifeline are
// reported as ratios to these, so the figures mean something on any machine.
import postgres from "postgres";
import { summary } from "./stats.js";

export interface RawFigures {
  /** Sequential single-row autocommit inserts on one connection: the round trip of one commit. */
  insertLatency: ReturnType<typeof summary>;
  /** Single-row autocommit inserts per second with `concurrency` connections. */
  insertRate: number;
}

export async function measureRawInserts(url: string, concurrency: number, seconds: number): Promise<RawFigures> {
  const sql = postgres(url, { max: concurrency, onnotice: () => {} });
  try {
    await sql`create table if not exists bench_raw (id bigserial primary key, payload text not null, at timestamptz not null default now())`;
    const latencies: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      await sql`insert into bench_raw (payload) values (${`latency ${i}`})`;
      latencies.push(performance.now() - started);
    }
    let count = 0;
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        while (performance.now() < deadline) {
          await sql`insert into bench_raw (payload) values (${`rate ${w}`})`;
          count++;
        }
      }),
    );
    return { insertLatency: summary(latencies), insertRate: count / ((performance.now() - started) / 1000) };
  } finally {
    await sql`drop table if exists bench_raw`;
    await sql.end({ timeout: 5 });
  }
}
