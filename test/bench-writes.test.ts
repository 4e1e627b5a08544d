// The write benchmark (bench/writes.ts, `npm run bench:writes`) keeps working: run
// on a tiny size against the PostgreSQL server the suite uses (it creates and drops
// a database of its own there), it exits 0 and prints its tables, every cycle's
// unit gone at the end. Timing is not checked here: performance lives in the
// benchmark's ratios, never in a timed test. The benchmark needs PostgreSQL on a
// loopback address, so on PGlite this file skips, and says so.
import { describe, expect, it } from "vitest";
import { onLoopback, runBenchmark } from "./support/bench.js";
import { scaled } from "./support/time-scale.js";

/** The benchmark's own deadlines (BENCH_DEADLINE_S) are set to 60 s below; this leaves room for its server's start and its phases. */
const RUN_DEADLINE_MS = 300_000;

const tiny = {
  BENCH_DATABASE_URL: process.env.DATABASE_URL ?? "",
  BENCH_WRITE_SECONDS: "1",
  BENCH_PGBENCH_SECONDS: "1",
  BENCH_LATENCY_COUNT: "20",
  BENCH_WARMUP_CYCLES: "1",
  BENCH_DEADLINE_S: "60",
};

/** The tables' lines every run prints, whichever raw reference it took. */
function expectTables(output: string) {
  expect(output).toMatch(/^machine: \d+ cores; load average at the end [\d.]+, [\d.]+, [\d.]+/m);
  expect(output).toMatch(/^\| figure \| Lifeline \| raw PostgreSQL \| ratio \| issue's target \| met \|$/m);
  for (const transport of ["HTTP", "graphql-ws"]) {
    for (const mode of [`8 models, ${transport}`, `1 model, ${transport}`]) {
      expect(output).toMatch(
        new RegExp(`^\\| throughput, ${mode} \\| [\\d,]+ mutations/s \\| [\\d,]+ tps \\| [\\d.]+× \\| ≥ 0\\.4× \\| (yes|no) \\|$`, "m"),
      );
      expect(output).toMatch(new RegExp(`^\\| server CPU, ${mode} \\| [\\d.]+ ms/mutation \\| .* \\| ≤ 1 ms \\| (yes|no) \\|$`, "m"));
      // Every operation of the cycle ran (a p50 of its own), and no unit was left behind.
      expect(output).toMatch(
        new RegExp(`^\\| ${mode} \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+/s \\|( [\\d.]+ ms \\([\\d.]+×\\) \\|){4} .* \\| nothing \\|$`, "m"),
      );
    }
    expect(output).toMatch(
      new RegExp(
        `^\\| latency p50, setConstraints, one client, ${transport} \\(20\\) \\| [\\d.]+ ms \\| [\\d.]+ ms \\(insert p50\\) \\| [\\d.]+× \\| ≤ 4× \\| (yes|no) \\|$`,
        "m",
      ),
    );
    expect(output).toMatch(new RegExp(`^\\| latency p99, ${transport} \\| [\\d.]+ ms \\|`, "m"));
  }
  expect(output).toMatch(/^\| server peak RSS \| [\d,]+ MiB \|/m);
  // Where a write's CPU goes: PostgreSQL's processes (local here) and the whole machine, beside pgbench's.
  const cpu = "-?[\\d.]+ ms";
  expect(output).toMatch(
    /^\| CPU a write, same run \| writes\/s \| machine busy \| PostgreSQL \| server \| clients \| the rest \| machine \| ratio \|$/m,
  );
  expect(output).toMatch(
    new RegExp(
      `^\\| raw: pgbench -N[^|]*, a transaction \\| [\\d,]+/s \\| \\d+% \\| ${cpu} \\|  \\|  \\| ${cpu} \\| ${cpu} \\| 1× \\|$`,
      "m",
    ),
  );
  for (const transport of ["HTTP", "graphql-ws"])
    for (const mode of [`8 models, ${transport}`, `1 model, ${transport}`])
      expect(output).toMatch(
        new RegExp(`^\\| Lifeline, ${mode}, a mutation \\| [\\d,]+/s \\| \\d+% \\|( ${cpu} \\|){5} [\\d.]+× \\|$`, "m"),
      );
  expect(output).toMatch(/At 0\.4× pgbench, [\d,]+ mutations\/s, \d+ cores leave at most [\d.]+ ms of CPU a mutation/);
}

describe.skipIf(!onLoopback)(
  "npm run bench:writes on a tiny size (skipped without DATABASE_URL on a loopback address: the benchmark needs PostgreSQL there)",
  () => {
    it("measures the raw reference, then the latency and both throughput modes over HTTP and over graphql-ws; exits 0 and prints its tables, nothing left behind", {
      timeout: scaled(RUN_DEADLINE_MS + 30_000),
    }, async () => {
      const { code, output } = await runBenchmark("bench/writes.ts", tiny, RUN_DEADLINE_MS);
      expect(code, output).toBe(0);
      expectTables(output);
      expect(output).toMatch(
        /^raw PostgreSQL, same run: [\d,]+ tps \((pgbench -N -c 8 -j 2 -T 1|\S+ not found: .*)\); single-row autocommit insert p50 [\d.]+ ms/m,
      );
    });

    it("without pgbench (BENCH_PGBENCH=none) takes its -N statement mix through postgres.js, labelled as such", {
      timeout: scaled(RUN_DEADLINE_MS + 30_000),
    }, async () => {
      const { code, output } = await runBenchmark("bench/writes.ts", { ...tiny, BENCH_PGBENCH: "none" }, RUN_DEADLINE_MS);
      expect(code, output).toBe(0);
      expectTables(output);
      expect(output).toMatch(
        /^raw PostgreSQL, same run: [\d,]+ tps \(pgbench not used \(BENCH_PGBENCH=none\): its -N statement mix through postgres\.js, 8 connections, 1 s\)/m,
      );
    });
  },
);
