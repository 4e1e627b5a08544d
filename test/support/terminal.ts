// A real terminal for the lifeline command: a tmux session (its own server socket) running bash, where a test types
// command lines and reads the screen as a user would see it, colours and in-place redraws included.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { scaled } from "./time-scale.js";

const exec = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;

/** Whether tmux is here: the terminal tests skip without it, unless LIFELINE_REQUIRE_TMUX=1 (as in CI). */
export async function tmuxAvailable(): Promise<boolean> {
  try {
    await exec("tmux", ["-V"]);
    return true;
  } catch {
    return false;
  }
}

export interface Terminal {
  /** Types `line` and Enter into `window` (0 unless opened with `openWindow`). */
  type(line: string, window?: number): Promise<void>;
  /** Sends keys by tmux's names (e.g. "C-c"). */
  keys(keys: string, window?: number): Promise<void>;
  /** What the window shows now, with its scrollback: plain text. */
  screen(window?: number): Promise<string>;
  /** Polls the screen (every 100 ms) until `pattern` matches, within the deadline (scaled). */
  until(pattern: RegExp, options?: { window?: number; timeoutMs?: number }): Promise<RegExpExecArray>;
  /** Runs `line` in window 0 and waits for it to end: its exit code and what it printed. */
  run(line: string, timeoutMs?: number): Promise<{ code: number; output: string }>;
  /** A second window (a shell of its own) for a command that keeps running. */
  openWindow(): Promise<number>;
  /** Saves what the window shows (with colours, as ANSI) to the run's directory; returns the file. */
  save(name: string, window?: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * Opens a 160×48 terminal whose shell finds `lifeline` on its PATH (a shim running this checkout's bin/lifeline.mjs)
 * and keeps its login under its own XDG_CONFIG_HOME.
 */
export async function openTerminal(env: Record<string, string> = {}): Promise<Terminal> {
  const home = mkdtempSync(join(tmpdir(), "lifeline-terminal-"));
  const bin = join(home, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "lifeline"), `#!/bin/sh\nexec "${process.execPath}" "${root}bin/lifeline.mjs" "$@"\n`, { mode: 0o755 });
  const socket = join(home, "tmux.sock");
  const tmux = (...args: string[]) => exec("tmux", ["-S", socket, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const shellEnv = {
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(home, "config"),
    HOME: home,
    TERM: "xterm-256color",
    PS1: "$ ",
    LIFELINE_URL: "",
    LIFELINE_TOKEN: "",
    ...env,
  };
  // Through env(1), not tmux's -e: tmux sets PATH from its own environment whatever -e says.
  const shell = ["env", ...Object.entries(shellEnv).map(([k, v]) => `${k}=${v}`), "bash", "--norc", "--noprofile"];
  await tmux("new-session", "-d", "-x", "160", "-y", "48", ...shell);
  let windows = 1;
  let runs = 0;
  const target = (window = 0) => `:${window}`;

  const screen = async (window = 0) => (await tmux("capture-pane", "-p", "-J", "-S", "-2000", "-t", target(window))).stdout;
  const until = async (pattern: RegExp, { window = 0, timeoutMs = 60_000 } = {}) => {
    const deadline = Date.now() + scaled(timeoutMs);
    let last = "";
    for (;;) {
      last = await screen(window);
      const found = pattern.exec(last);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the terminal did not show ${pattern} within ${scaled(timeoutMs)} ms:\n${last}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const type = async (line: string, window = 0) => {
    await tmux("send-keys", "-t", target(window), "-l", line);
    await tmux("send-keys", "-t", target(window), "Enter");
  };
  return {
    type,
    keys: async (keys, window = 0) => void (await tmux("send-keys", "-t", target(window), keys)),
    screen,
    until,
    async run(line, timeoutMs = 60_000) {
      const id = ++runs;
      // The marker's text is built by the shell, so the typed line itself never matches it.
      await type(`${line}; echo "[run ${id} exit"" $?]"`);
      const [, code] = (await until(new RegExp(`\\[run ${id} exit (\\d+)\\]`), { timeoutMs }))!;
      const all = await screen();
      const start = all.lastIndexOf(`${line}; echo`);
      const end = all.lastIndexOf(`[run ${id} exit`);
      const output = all.slice(all.indexOf("\n", start) + 1, end);
      return { code: Number(code), output };
    },
    async openWindow() {
      await tmux("new-window", "-d", "-t", target(windows), ...shell);
      return windows++;
    },
    async save(name, window = 0) {
      const file = join(home, `${name}.ansi`);
      writeFileSync(file, (await tmux("capture-pane", "-p", "-e", "-t", target(window))).stdout);
      return file;
    },
    async close() {
      await tmux("kill-server").catch(() => {});
    },
  };
}
