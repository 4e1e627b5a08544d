// The scale benchmark (bench/scale.ts, `npm run bench:scale`) keeps working: on a tiny
// size, against the PostgreSQL server the suite uses (it creates and drops a database of
// its own), it builds, lists, force-removes and destroys the model through the API, prints
// its table and finds nothing left behind. Timing is not checked: that is the benchmark's.
import { describe, expect, it } from "vitest";
import { onLoopback, runBenchmark } from "./support/bench.js";
import { scaled } from "./support/time-scale.js";

describe.skipIf(!onLoopback)(
  "npm run bench:scale on a tiny model (skipped without DATABASE_URL on a loopback address: the benchmark needs PostgreSQL there)",
  () => {
    it(
      "runs every phase and leaves nothing behind",
      async () => {
        const { code, output } = await runBenchmark(
          "bench/scale.ts",
          { BENCH_DATABASE_URL: process.env.DATABASE_URL ?? "", BENCH_UNITS: "30", BENCH_DEADLINE_S: "60" },
          240_000,
        );
        expect(code, output).toBe(0);
        for (const phase of ["create (addUnit × 1,000)", "enter every scope (enterScope)", "list (status, 1,000 a page)"])
          expect(output).toContain(`| ${phase} | 30 |`);
        expect(output).toMatch(/^\| forced removeApplication, cleanups run \| 30 \| [\d.]+ s \|/m);
        expect(output).toMatch(/^\| forced destroyModel, cleanups run \| 30 \| [\d.]+ s \|/m);
        expect(output).toMatch(/^server: peak RSS since start [\d,]+ MiB/m);
        expect(output).toContain("left behind after the forced removal: nothing; after destroyModel: nothing");
      },
      scaled(300_000),
    );
  },
);
