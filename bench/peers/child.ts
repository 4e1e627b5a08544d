// A peer's server as a child process: started with its output kept in part (the last
// lines, for a failure's report), ready once a line says so, stopped with SIGTERM and
// then SIGKILL. Every wait has a deadline.
import { spawn } from "node:child_process";

const TAIL_LINES = 100;

export interface Child {
  pid: number;
  tail(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns `command`; resolves once a line of its output matches `ready`, rejects if it exits first or after `timeoutMs`. */
export function startChild(
  what: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<Child> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let partial = "";
  let isReady = false;
  let onReady: (() => void) | null = null;
  const heard = (data: Buffer) => {
    const parts = (partial + data.toString()).split("\n");
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
      if (!isReady && ready.test(line)) {
        isReady = true;
        onReady?.();
      }
    }
  };
  child.stdout.on("data", heard);
  child.stderr.on("data", heard);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const handle: Child = {
    pid: child.pid!,
    tail: () => lines.join("\n"),
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(killer);
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${what} was not ready within ${timeoutMs} ms:\n${lines.join("\n")}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (!isReady) reject(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${lines.join("\n")}`));
    });
    onReady = () => {
      clearTimeout(timer);
      resolve(handle);
    };
  });
}
