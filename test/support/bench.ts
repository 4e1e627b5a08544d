// Runs one of the benchmarks (bench/*.ts) as `npm run bench:…` would, on the
// PostgreSQL server the suite uses, for the specs that check they keep working.
// They need PostgreSQL on a loopback address; on PGlite their specs skip.
import { spawn } from "node:child_process";
import { onPostgres } from "./store.js";
import { scaled } from "./time-scale.js";

const root = new URL("../..", import.meta.url).pathname;

/** Whether the suite's DATABASE_URL is a loopback PostgreSQL, where the benchmarks may run. */
export const onLoopback = onPostgres && ["127.0.0.1", "localhost", "[::1]"].includes(new URL(process.env.DATABASE_URL!).hostname);

/** Runs `script` with `env` added; its exit code and everything it printed, or a rejection once `baseMs` (scaled) has passed (it is killed). */
export function runBenchmark(
  script: string,
  env: Record<string, string>,
  baseMs: number,
): Promise<{ code: number | null; output: string }> {
  const deadlineMs = scaled(baseMs);
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, env: { ...process.env, ...env } });
  let output = "";
  const heard = (data: Buffer) => {
    output += data;
  };
  child.stdout.on("data", heard);
  child.stderr.on("data", heard);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} did not finish within ${deadlineMs} ms:\n${output}`));
    }, deadlineMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
