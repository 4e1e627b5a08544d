// `npm start` as tests meet it: src/server/main.ts in a process of its own,
// with its output kept, so a test can wait for a line (with a deadline, never
// a sleep), talk to the url it printed, stop it or kill it.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll } from "vitest";
import { ADMIN_TOKEN } from "./store.js";
import { post } from "./streams.js";
import { scaled } from "./time-scale.js";

const root = new URL("../..", import.meta.url).pathname;

export interface LifelineProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the first match of `pattern` in its output; rejects if it exits first or the deadline (`timeoutMs`, scaled) passes. */
  until(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Its GraphQL url, once it printed it. */
  ready(): Promise<string>;
  /** Resolves with its exit code. */
  exited: Promise<number | null>;
  /** Runs a query as the tests' admin; throws on errors. */
  ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

const running: LifelineProcess[] = [];
afterAll(() => {
  for (const { child } of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Starts `npm start`'s entry point with the tests' admin token on a free port; `env` adds to (or, with "", blanks) the test's environment. */
export function startLifeline(env: Record<string, string>): LifelineProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", LIFELINE_ADMIN_TOKEN: ADMIN_TOKEN, LIFELINE_LOG: "info", ...env },
  });
  let output = "";
  const waiters = new Set<() => void>();
  const heard = (data: Buffer) => {
    output += data;
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.on("data", heard);
  child.stderr.on("data", heard);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let url = "";

  const until = (pattern: RegExp, baseMs = 45_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timeoutMs = scaled(baseMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      const check = () => {
        const found = pattern.exec(output);
        if (found) {
          done();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`lifeline did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      waiters.add(check);
      void exited.then((code) => {
        if (!waiters.has(check)) return;
        done();
        reject(new Error(`lifeline exited with ${code} before printing ${pattern}:\n${output}`));
      });
      check();
    });

  const process_: LifelineProcess = {
    child,
    output: () => output,
    until,
    ready: async () => {
      url ||= (await until(/GraphiQL at (http[^\s"]+)/))[1]!;
      return url;
    },
    exited,
    ok: async (query, variables) => {
      const result = await post(await process_.ready(), query, variables);
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      return result.data;
    },
  };
  running.push(process_);
  return process_;
}
