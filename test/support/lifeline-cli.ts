// The lifeline command as tests meet it: the real binary (bin/lifeline.mjs) run to its end, or left running (`--watch`,
// `debug-log`) with its output kept; and a real `npm start` on a store of its own to point it at.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LifelineProcess, startLifeline } from "./lifeline-process.js";
import { ADMIN_TOKEN, createPrivateDatabase, onPostgres } from "./store.js";
import { scaled } from "./time-scale.js";

const root = new URL("../..", import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A config directory of the test's own, so no test reads the developer's login. */
export function cliConfigHome(): string {
  return mkdtempSync(join(tmpdir(), "lifeline-cli-"));
}

function spawnCli(config: string, args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["bin/lifeline.mjs", ...args], {
    cwd: root,
    env: { ...process.env, XDG_CONFIG_HOME: config, LIFELINE_URL: "", LIFELINE_TOKEN: "", NO_COLOR: "1", ...env },
  });
}

/** Runs `lifeline …args` to its end. */
export function runCli(config: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawnCli(config, args, env);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data) => (stdout += data));
  child.stderr.on("data", (data) => (stderr += data));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** A `lifeline` left running: its output so far, a wait for a line (with a deadline), and its end. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout after `from` (a character offset); rejects on exit or deadline. */
  until(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<RegExpExecArray>;
  exited: Promise<Run>;
}

export function startCli(config: string, args: string[], env: Record<string, string> = {}): RunningCli {
  const child = spawnCli(config, args, env);
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (data) => {
    stdout += data;
    for (const waiter of [...waiters]) waiter();
  });
  child.stderr.on("data", (data) => (stderr += data));
  const exited = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  const until = (pattern: RegExp, { from = 0, timeoutMs = 45_000 } = {}) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const deadline = scaled(timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      const check = () => {
        const found = pattern.exec(stdout.slice(from));
        if (found) {
          done();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`lifeline ${args.join(" ")} did not print ${pattern} within ${deadline} ms:\n${stdout}\n${stderr}`));
      }, deadline);
      waiters.add(check);
      void exited.then(({ code }) => {
        if (!waiters.has(check)) return;
        done();
        reject(new Error(`lifeline ${args.join(" ")} exited with ${code} before printing ${pattern}:\n${stdout}\n${stderr}`));
      });
      check();
    });
  return { child, stdout: () => stdout, stderr: () => stderr, until, exited };
}

/** `npm start` on a store no other test file shares (a first run's: the model `default` with machine 0). */
export interface CliServer {
  process: LifelineProcess;
  url: string;
  /** LIFELINE_URL and LIFELINE_TOKEN (the tests' admin) for runCli's env. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startCliServer(env: Record<string, string> = {}): Promise<CliServer> {
  const database = onPostgres ? await createPrivateDatabase() : undefined;
  // Its dummy cloud's file too: by default it sits beside the data directory (/tmp/cloud.json for a data directory
  // made in /tmp) or in the clone (.lifeline/cloud.json), where servers of other tests would share it.
  const dir = mkdtempSync(join(tmpdir(), "lifeline-cli-data-"));
  const store: Record<string, string> = database
    ? { DATABASE_URL: database.url }
    : { DATABASE_URL: "", LIFELINE_DATA_DIR: join(dir, "pgdata") };
  const process_ = startLifeline({ ...store, LIFELINE_CLOUD_FILE: join(dir, "cloud.json"), ...env });
  const url = await process_.ready();
  return {
    process: process_,
    url,
    env: { LIFELINE_URL: url, LIFELINE_TOKEN: ADMIN_TOKEN },
    async stop() {
      if (process_.child.exitCode === null) process_.child.kill("SIGTERM");
      await process_.exited;
      await database?.drop();
    },
  };
}
