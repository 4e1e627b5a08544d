// Runs charm hooks as Juju's uniter does (worker/uniter/runner): the hook's
// executable in <charm>/hooks/<name>, in the charm directory, with Juju's
// environment and the hook tools first on its PATH. One HookRunner serves every
// unit agent of a process: it owns a private temporary directory holding the
// tools' socket (tool-server.ts) and the tools, one /bin/sh wrapper each,
// removed on close. Each run gets a fresh context id, so the tools of
// concurrent hooks are served against their own hook's context only.
//
// The runner never commits anything: relation-set writes land in the caller's
// HookContext, which holds them (PendingRelationSettings); the caller commits
// them only when the outcome is ok, as Juju's CommitHookChanges does.
import { type ChildProcessByStdio, type SpawnOptions, spawn } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { type HookContext, type RelationRef, relationIdText } from "./context.js";
import { OutputTail } from "./output-tail.js";
import { ToolServer } from "./tool-server.js";
import { toolNames } from "./tools.js";

export interface HookRun {
  /** The unit's charm directory: the hook is <charmDir>/hooks/<hook>, run with this as its working directory. */
  charmDir: string;
  /** The hook's name: "install", "db-relation-joined", ... */
  hook: string;
  /** The unit running it: "wordpress/0". */
  unit: string;
  model: string;
  machineId: string;
  /** A subordinate's principal unit; "" for a principal unit (as Juju sets JUJU_PRINCIPAL_UNIT). */
  principalUnit: string;
  /** In a relation hook, its relation (JUJU_RELATION, JUJU_RELATION_ID; the tools' default -r). */
  relation?: RelationRef;
  /** In a relation hook, the remote unit it is about (relation-get's default unit); none in -broken. */
  remoteUnit?: string;
  remoteApp?: string;
  /** In -departed, the unit that departs (JUJU_DEPARTING_UNIT). */
  departingUnit?: string;
  /** What the hook's tools read and write. */
  context: HookContext;
  /** Kill the hook (its whole process group) after this long; no limit by default, as in Juju. */
  timeoutMs?: number;
}

export type HookOutcome =
  | {
      /** The charm has no such hook: nothing ran, and the unit simply moves on. */
      ran: false;
    }
  | {
      ran: true;
      /** Exited 0 (not killed, not timed out): the caller may commit the context's relation-set writes. */
      ok: boolean;
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      /** Killed by timeoutMs. */
      timedOut: boolean;
      /** stdout and stderr together, in arrival order, the last 64 KiB. */
      output: string;
    };

/** How much of a hook's output is kept (the end: that is where a failure says why). */
export const HOOK_OUTPUT_LIMIT = 64 * 1024;

/**
 * After the hook has exited, how long to wait for the rest of its output: a process it left in the
 * background may hold its stdout open for good, and must not hold the unit agent too.
 */
const OUTPUT_DRAIN_MS = 500;

/** Hook names are made of Juju's names (endpoints, "relation", "joined"): nothing that could leave hooks/. */
const hookName = /^[a-z0-9][a-z0-9-]*$/;

const clientSource = fileURLToPath(new URL("./tool-client.mjs", import.meta.url));

interface Workspace {
  dir: string;
  toolsDir: string;
  socketPath: string;
  server: ToolServer;
}

export class HookRunner {
  private workspace: Promise<Workspace> | null = null;
  private closed = false;

  /** `baseDir`: where the runner's temporary directory goes (the OS's temporary directory by default; a socket path must stay short). */
  constructor(private readonly options: { baseDir?: string } = {}) {}

  /** Creates the temporary directory, the tools and the socket; the first run() does this if nothing did before. */
  async start(): Promise<void> {
    await this.ready();
  }

  /** The directory of hook tools (the runner starts if it has not). */
  async toolsDir(): Promise<string> {
    return (await this.ready()).toolsDir;
  }

  private ready(): Promise<Workspace> {
    if (this.closed) return Promise.reject(new Error("the hook runner is closed"));
    // A start that failed (no temporary directory, say) is tried again by the next run.
    this.workspace ??= createWorkspace(this.options.baseDir ?? tmpdir()).catch((error: unknown) => {
      this.workspace = null;
      throw error;
    });
    return this.workspace;
  }

  async run(run: HookRun): Promise<HookOutcome> {
    if (!hookName.test(run.hook)) throw new Error(`invalid hook name ${JSON.stringify(run.hook)}`);
    const charmDir = resolve(run.charmDir);
    const path = join(charmDir, "hooks", run.hook);
    let mode: number;
    try {
      mode = (await stat(path)).mode;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ran: false };
      throw error;
    }
    const workspace = await this.ready();
    // Charm files arrive as text over the API: a hook without its executable bit gets it, as the
    // charm's author meant (read permissions become execute permissions).
    if ((mode & 0o100) === 0) {
      try {
        await chmod(path, (mode & 0o7777) | ((mode & 0o444) >> 2));
      } catch (error) {
        return failedToStart(`cannot make hook "${run.hook}" executable: ${(error as Error).message}`);
      }
    }
    const contextId = workspace.server.open(`${run.unit}-${run.hook}`, {
      hook: { unit: run.unit, relation: run.relation, remoteUnit: run.remoteUnit, remoteApp: run.remoteApp },
      context: run.context,
    });
    try {
      return await execute(path, charmDir, hookEnvironment(run, charmDir, workspace, contextId), run.timeoutMs);
    } finally {
      workspace.server.finish(contextId);
    }
  }

  /** Stops serving tool calls and removes the temporary directory. Hooks still running lose their tools. */
  async close(): Promise<void> {
    this.closed = true;
    const workspace = await this.workspace?.catch(() => null);
    if (!workspace) return;
    await workspace.server.close();
    await rm(workspace.dir, { recursive: true, force: true });
  }
}

async function createWorkspace(baseDir: string): Promise<Workspace> {
  // mkdtemp makes it 0700: only the agent's user reaches the socket and the tools.
  const dir = await mkdtemp(join(baseDir, "lifeline-hooks-"));
  const toolsDir = join(dir, "tools");
  await mkdir(toolsDir);
  // A copy beside the tools: a checkout changing the source tree under a running agent does not change its tools.
  const client = join(dir, "tool-client.mjs");
  await copyFile(clientSource, client);
  for (const tool of toolNames) {
    const wrapper = `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(client)} ${tool} "$@"\n`;
    await writeFile(join(toolsDir, tool), wrapper, { mode: 0o755 });
  }
  const socketPath = join(dir, "agent.socket");
  try {
    return { dir, toolsDir, socketPath, server: await ToolServer.listen(socketPath) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Juju's hook environment (worker/uniter/runner/context HookVars): built afresh, so nothing of the agent's own (its credentials) leaks in. */
function hookEnvironment(run: HookRun, charmDir: string, workspace: Workspace, contextId: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: `${workspace.toolsDir}:${process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin"}`,
    LANG: "C.UTF-8",
    CHARM_DIR: charmDir,
    JUJU_CHARM_DIR: charmDir,
    JUJU_CONTEXT_ID: contextId,
    JUJU_HOOK_NAME: run.hook,
    JUJU_AGENT_SOCKET_ADDRESS: workspace.socketPath,
    JUJU_AGENT_SOCKET_NETWORK: "unix",
    JUJU_UNIT_NAME: run.unit,
    JUJU_MODEL_NAME: run.model,
    JUJU_MACHINE_ID: run.machineId,
    JUJU_PRINCIPAL_UNIT: run.principalUnit,
  };
  for (const name of ["HOME", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (run.relation) {
    env.JUJU_RELATION = run.relation.endpoint;
    env.JUJU_RELATION_ID = relationIdText(run.relation);
    env.JUJU_REMOTE_UNIT = run.remoteUnit ?? "";
    env.JUJU_REMOTE_APP = run.remoteApp ?? "";
    if (run.departingUnit !== undefined) env.JUJU_DEPARTING_UNIT = run.departingUnit;
  }
  return env;
}

const failedToStart = (output: string): HookOutcome => ({ ran: true, ok: false, exitCode: null, signal: null, timedOut: false, output });

/**
 * Waits before trying a hook's file again while Linux refuses to run it (ETXTBSY): some process still has it open for
 * writing. A child forked anywhere in this process while the file was being written inherits the writer's descriptor
 * and holds it until its own exec, a matter of milliseconds; spawn then throws. CI met it once.
 */
const BUSY_WAITS_MS = [5, 10, 20, 40, 80, 160, 320];

async function spawnHook(path: string, options: SpawnOptions): Promise<ChildProcessByStdio<null, Readable, Readable>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return spawn(path, [], { ...options, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      const wait = BUSY_WAITS_MS[attempt];
      if ((error as NodeJS.ErrnoException).code !== "ETXTBSY" || wait === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function execute(path: string, cwd: string, env: Record<string, string>, timeoutMs: number | undefined): Promise<HookOutcome> {
  // Its own process group, so a timeout kills whatever the hook started too.
  const child = await spawnHook(path, { cwd, env, detached: true });
  return new Promise((settle) => {
    const output = new OutputTail(HOOK_OUTPUT_LIMIT);
    let timedOut = false;
    let settled = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup(child.pid);
          }, timeoutMs);
    let drain: NodeJS.Timeout | undefined;
    const done = (outcome: HookOutcome) => {
      clearTimeout(timer);
      clearTimeout(drain);
      if (settled) return;
      settled = true;
      settle(outcome);
    };
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    // Not executable after all, not a program (no #! line), gone meanwhile: the hook failed.
    child.on("error", (error) => done(failedToStart(`cannot run hook: ${error.message}`)));
    child.on("exit", () => {
      // The hook is over; what is left is reading the output it wrote.
      clearTimeout(timer);
      drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, OUTPUT_DRAIN_MS);
    });
    child.on("close", (exitCode, signal) =>
      done({ ran: true, ok: exitCode === 0 && !timedOut, exitCode, signal, timedOut, output: output.text() }),
    );
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
