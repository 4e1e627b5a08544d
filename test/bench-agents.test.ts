// The agents' scale benchmark (bench/agents.ts, `npm run bench:agents`) keeps
// working: run on a tiny size against the PostgreSQL server the suite uses (it
// creates and drops a database of its own there), it exits 0 and prints its
// table, with nothing left behind. Timing is not checked here: performance
// lives in the benchmark's ratios, never in a timed test. The benchmark needs
// PostgreSQL on a loopback address, so on PGlite this file skips, and says so.
import { describe, expect, it } from "vitest";
import { onLoopback, runBenchmark } from "./support/bench.js";
import { scaled } from "./support/time-scale.js";

/** The benchmark's own phase deadline is 120 s; this leaves room for its server's start and the database's creation. */
const RUN_DEADLINE_MS = 420_000;

describe.skipIf(!onLoopback)(
  "npm run bench:agents on a tiny size (skipped without DATABASE_URL on a loopback address: the benchmark needs PostgreSQL there)",
  () => {
    it("deploys, settles and removes 3 hook-less units and 2 with real hooks; exits 0 and prints its table, nothing left behind", {
      timeout: scaled(RUN_DEADLINE_MS + 30_000),
    }, async () => {
      const { code, output } = await runBenchmark(
        "bench/agents.ts",
        {
          BENCH_DATABASE_URL: process.env.DATABASE_URL!,
          BENCH_AGENT_UNITS: "3",
          BENCH_HOOK_UNITS: "2",
          BENCH_RAW_SECONDS: "1",
          BENCH_SETTLED_HOLD_S: "1",
        },
        RUN_DEADLINE_MS,
      );
      expect(code, output).toBe(0);
      expect(output).toMatch(/^raw PostgreSQL, same run: [\d,]+\/s single-row inserts/m);
      expect(output).toMatch(/^\| units \| addUnit calls \| settled \| ms\/unit \|/m);
      // Every phase finished (a deadline would print "deadline"), its RSS was read (settling, settled, held settled,
      // removing), and the database holds nothing of the removed application.
      expect(output).toMatch(
        /^\| 3 \| [\d.]+ s \| [\d.]+ s \| .* \| [\d.]+ s \| .* \| [\d.]+ s \| [\d.]+ \| [\d,]+ MiB \| [\d,]+ MiB \| [\d,]+ MiB \| [\d,]+ MiB \| nothing \|$/m,
      );
      expect(output).toMatch(/^\| 2, real hooks \| [\d.]+ s \| [\d.]+ s \| .* \| nothing \|$/m);
      // Where each phase's CPU went, a unit: the server's, PostgreSQL's (local here), the rest of the machine's.
      for (const phase of ["settled", "removed", "machines removed"])
        expect(output).toMatch(new RegExp(`^\\| 3 \\| ${phase} \\| \\d+% \\| [\\d.]+ \\| [\\d.]+ \\| -?[\\d.]+ \\| [\\d.]+ \\|$`, "m"));
    });
  },
);
