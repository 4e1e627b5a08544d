// The agents' scale benchmark (bench/agents.ts, `npm run bench:agents`) keeps
// working: run on a tiny size against the PostgreSQL server the suite uses (it
// creates and drops a database of its own there), it exits 0 and prints its
// table, with nothing left behind. Timing is not checked here: performance
// lives in the benchmark's ratios, never in a timed test. The benchmark needs
// PostgreSQL on a loopback address, so on PGlite this file skips, and says so.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { onPostgres } from "./support/store.js";

const root = new URL("..", import.meta.url).pathname;
const onLoopback = onPostgres && ["127.0.0.1", "localhost", "[::1]"].includes(new URL(process.env.DATABASE_URL!).hostname);
/** The benchmark's own phase deadline is 120 s; this leaves room for its server's start and the database's creation. */
const RUN_DEADLINE_MS = 420_000;

function runBenchmark(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/agents.ts"], { cwd: root, env: { ...process.env, ...env } });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the benchmark did not finish within ${RUN_DEADLINE_MS} ms:\n${output}`));
    }, RUN_DEADLINE_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(!onLoopback)(
  "npm run bench:agents on a tiny size (skipped without DATABASE_URL on a loopback address: the benchmark needs PostgreSQL there)",
  () => {
    it("deploys, settles and removes 3 hook-less units and 2 with real hooks; exits 0 and prints its table, nothing left behind", {
      timeout: RUN_DEADLINE_MS + 30_000,
    }, async () => {
      const { code, output } = await runBenchmark({
        BENCH_DATABASE_URL: process.env.DATABASE_URL!,
        BENCH_AGENT_UNITS: "3",
        BENCH_HOOK_UNITS: "2",
        BENCH_RAW_SECONDS: "1",
      });
      expect(code, output).toBe(0);
      expect(output).toMatch(/^raw PostgreSQL, same run: [\d,]+\/s single-row inserts/m);
      expect(output).toMatch(/^\| units \| addUnit calls \| settled \| ms\/unit \|/m);
      // Every phase finished (a deadline would print "deadline"), and the database holds nothing of the removed application.
      expect(output).toMatch(/^\| 3 \| [\d.]+ s \| [\d.]+ s \| .* \| [\d.]+ s \| .* \| [\d.]+ s \| [\d.]+ \| [\d,]+ MiB \| nothing \|$/m);
      expect(output).toMatch(/^\| 2, real hooks \| [\d.]+ s \| [\d.]+ s \| .* \| nothing \|$/m);
    });
  },
);
