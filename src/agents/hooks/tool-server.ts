// The agent's end of the hook tools: a Unix-domain socket that serves every
// tool call of every running hook of the process (Juju's jujuc server). Each
// running hook has a session under a fresh, unguessable context id, which its
// tools send from JUJU_CONTEXT_ID: a call is served against that session's hook
// and context only, and a call naming an unknown or finished session is
// refused. The socket lives in a directory only the agent's user can enter.
//
// The protocol, one JSON object a line (tool-client.mjs is the other end):
//   tool → agent  {"context": id, "tool": "relation-get", "args": [...], "cwd": "/..."}
//   agent → tool  {"stdin": true}                      only when the tool reads its input (relation-set --file -)
//   tool → agent  {"stdin": "..."}
//   agent → tool  {"code": 0, "stdout": "...", "stderr": "..."}
import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import type { HookContext } from "./context.js";
import { runTool, type ToolHook, type ToolResult } from "./tools.js";

/** A running hook, as its tools see it. */
export interface HookSession {
  hook: ToolHook;
  context: HookContext;
}

/** Requests are small (arguments, or a settings file on stdin); a line longer than this is not a hook tool talking. */
const maxLineBytes = 16 * 1024 * 1024;

export class ToolServer {
  private readonly sessions = new Map<string, HookSession>();
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async listen(socketPath: string): Promise<ToolServer> {
    const server = createServer();
    const tools = new ToolServer(server);
    server.on("connection", (socket) => tools.serve(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
    return tools;
  }

  /** Starts serving a hook's tool calls; returns its context id, for JUJU_CONTEXT_ID. `label` makes the id readable (Juju: unit and hook). */
  open(label: string, session: HookSession): string {
    const id = `${label}-${randomBytes(12).toString("hex")}`;
    this.sessions.set(id, session);
    return id;
  }

  /** The hook is over: its context id no longer works, and calls still in flight can no longer write. */
  finish(id: string): void {
    this.sessions.delete(id);
  }

  async close(): Promise<void> {
    this.sessions.clear();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    // A tool killed mid-call (its hook timed out) leaves nobody to answer; nothing to do about it.
    socket.on("error", () => {});
    const lines = new LineReader(socket);
    void (async () => {
      const answer = await this.call(lines, socket).catch((error: unknown) => refusal(`bad request: ${String(error)}`));
      if (!socket.destroyed) socket.end(`${JSON.stringify(answer)}\n`);
    })();
  }

  private async call(lines: LineReader, socket: Socket): Promise<ToolResult> {
    const line = await lines.next();
    if (line === null) throw new Error("no request");
    const request = JSON.parse(line) as Record<string, unknown>;
    const { context: id, tool, args, cwd } = request;
    if (typeof id !== "string" || typeof tool !== "string" || typeof cwd !== "string" || !isStrings(args)) {
      return refusal("bad request: expected context, tool, args and cwd");
    }
    const session = this.sessions.get(id);
    if (!session) return refusal(`bad request: no running hook has context id "${id}"`);
    return runTool(tool, {
      args,
      cwd,
      hook: session.hook,
      context: this.guarded(id, session.context),
      readStdin: async () => {
        socket.write(`${JSON.stringify({ stdin: true })}\n`);
        const reply = await lines.next();
        if (reply === null) throw new Error("the tool closed its connection before sending its input");
        const { stdin } = JSON.parse(reply) as Record<string, unknown>;
        if (typeof stdin !== "string") throw new Error("bad request: expected stdin");
        return stdin;
      },
    });
  }

  /** The session's context, refusing relation-set once the hook is over (its writes were committed or dropped by then). */
  private guarded(id: string, context: HookContext): HookContext {
    const over = () => !this.sessions.has(id);
    return {
      relationIds: (endpoint) => context.relationIds(endpoint),
      relation: (relationId) => context.relation(relationId),
      relationList: (relationId) => context.relationList(relationId),
      remoteApplication: (relationId) => context.remoteApplication(relationId),
      relationGet: (relationId, unit) => context.relationGet(relationId, unit),
      relationSet: (relationId, changes) => {
        if (over()) throw new Error("the hook is over: relation settings can no longer be set");
        context.relationSet(relationId, changes);
      },
      statusSet: (status, message) => context.statusSet(status, message),
      unitGet: (key) => context.unitGet(key),
      configGet: () => context.configGet(),
      log: (level, message) => context.log(level, message),
    };
  }
}

const refusal = (message: string): ToolResult => ({ code: 1, stdout: "", stderr: `ERROR ${message}\n` });

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/** The lines a socket sends, one at a time; null once it has ended. */
class LineReader {
  private buffered = "";
  private readonly lines: (string | null)[] = [];
  private waiting: ((line: string | null) => void) | null = null;

  constructor(socket: Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf("\n"); end !== -1; end = this.buffered.indexOf("\n")) {
        this.deliver(this.buffered.slice(0, end));
        this.buffered = this.buffered.slice(end + 1);
      }
      if (this.buffered.length > maxLineBytes) socket.destroy();
    });
    socket.on("close", () => this.deliver(null));
  }

  next(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  private deliver(line: string | null): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = null;
      waiting(line);
    } else {
      this.lines.push(line);
    }
  }
}
