// The server under test as `npm start` runs it: src/server/main.ts in a process
// of its own (so its memory and CPU are its own, and the measuring side does not
// share its event loop), on a free loopback port, with an admin token for the
// benchmark. Its output is kept only in part: with thousands of agents it logs a
// line per hook, and the benchmark must not grow with that. BENCH_SERVER_OUT=<file>
// keeps all of it there (node's --trace-gc through BENCH_NODE_FLAGS, say).
import { spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";

const root = new URL("..", import.meta.url).pathname;

/** The words of `npm start` (package.json's `start` script: `NAME=value … tsx <flags> src/server/main.ts`). */
function startScript(): string[] {
  const scripts = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { scripts: Record<string, string> }).scripts;
  return scripts.start!.split(/\s+/);
}

/** The Node flags `npm start` gives the server. */
const startFlags = (): string[] => startScript().filter((word) => word.startsWith("--"));

/** The environment `npm start` gives the server (its `NAME=value` words, before the command). */
export const startEnvironment = (): Record<string, string> =>
  Object.fromEntries(
    startScript()
      .map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
      .filter((match) => match !== null)
      .map(([, name, value]) => [name!, value!]),
  );

/**
 * Node's flags for a benchmark's server: `npm start`'s; BENCH_PROFILE=<dir>, a V8 CPU profile of it, written there when
 * it stops; BENCH_NODE_FLAGS, more flags (space-separated; a V8 flag given twice takes the last), for trying V8's
 * settings or tracing its collections.
 */
export const serverNodeFlags = (): string[] => [
  ...startFlags(),
  ...(process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
  ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean),
];

/** The admin token the benchmark's servers are started with (LIFELINE_ADMIN_TOKEN). */
export const ADMIN_TOKEN = "llt_bench-agents-admin-token-not-secret";

/** Lines of its output kept for a failure report. */
const TAIL_LINES = 200;
/** Lines that look like trouble (an agent's refused call, a failed stream) kept as samples. */
const TROUBLE_SAMPLES = 20;
const TROUBLE = /error|failed|cannot|refused|ended|exception/i;

export interface LifelineProcess {
  url: string;
  pid: number;
  /** The last lines it printed. */
  tail(): string[];
  /** How many of its lines looked like trouble, and the first few of them. */
  trouble(): { count: number; samples: string[] };
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts main.ts with `env` added to this process's environment; resolves once it printed its url. */
export function startLifeline(env: Record<string, string>, nodeFlags: string[] = [], startMs = 90_000): Promise<LifelineProcess> {
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    // At info: the line saying where it listens is an info record.
    env: {
      ...process.env,
      ...startEnvironment(),
      HOST: "127.0.0.1",
      PORT: "0",
      LIFELINE_ADMIN_TOKEN: ADMIN_TOKEN,
      LIFELINE_LOG: "info",
      ...env,
    },
  });
  const lines: string[] = [];
  const everything = process.env.BENCH_SERVER_OUT ? createWriteStream(process.env.BENCH_SERVER_OUT, { flags: "a" }) : undefined;
  const samples: string[] = [];
  let troubleCount = 0;
  let partial = "";
  let url = "";
  let onUrl: (() => void) | null = null;
  const heard = (data: Buffer) => {
    const text = partial + data.toString();
    const parts = text.split("\n");
    partial = parts.pop()!;
    for (const line of parts) {
      everything?.write(`${line}\n`);
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      if (TROUBLE.test(line)) {
        troubleCount++;
        if (samples.length < TROUBLE_SAMPLES) samples.push(line);
      }
      const found = !url && /GraphiQL at (http[^\s"]+)/.exec(line);
      if (found) {
        url = found[1]!;
        onUrl?.();
      }
    }
  };
  child.stdout.on("data", heard);
  child.stderr.on("data", heard);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve())).then(() => everything?.end());

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not print its url within ${startMs} ms:\n${lines.join("\n")}`));
    }, startMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (!url) reject(new Error(`the server exited (${code ?? signal}) before printing its url:\n${lines.join("\n")}`));
    });
    onUrl = () => {
      clearTimeout(timer);
      resolve({
        url,
        pid: child.pid!,
        tail: () => [...lines],
        trouble: () => ({ count: troubleCount, samples: [...samples] }),
        stop: async (graceMs = 15_000) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
          await exited;
          clearTimeout(killer);
        },
      });
    };
  });
}
