// This process's side of agent presence (src/model/agent-presence.ts has the rules):
// which agents it holds, kept in memory, and the few writes that tell the database.
//
// An agent is held here while it has a subscription open here (its streams; graphql-ws
// ends them when its socket closes, or when the keep-alive finds the socket dead), or made
// a request here within the last heartbeat, authenticated as itself: its token in the
// operation's extensions, in connectionParams or in the Authorization header, whichever
// transport. Its first operation here (an arrival) waits until the database knows, and a
// lost mark is cleared, so no agent ever reads itself lost. Every heartbeat the process
// renews its lease (one statement), which stands for every agent it holds; writes the
// departures since the last one, in one statement; and takes back, in one statement that
// writes nothing in the common case, those of its agents whose row says otherwise (marked
// lost while its heartbeats could not reach the database, say). Then it sweeps for agents
// lost anywhere (any process may; the model's lock has one do each).
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Plugin } from "graphql-yoga";
import { loggerFor } from "../core/log.js";
import { failureText } from "../db/sql-state.js";
import type { Context } from "../graphql/context.js";
import {
  type Actor,
  type AgentKey,
  agentsHeld,
  agentsLeft,
  type Database,
  outageReporter,
  renewLease,
  sweepLostAgents,
  unavailable,
} from "../model/index.js";

export interface PresenceOptions {
  /** How long an agent may be connected nowhere before it is lost (LIFELINE_AGENT_GRACE_MS). */
  graceMs: number;
  /** How often the process renews its lease, writes departures and sweeps; by default a sixth of the grace, at most 5 s. */
  heartbeatMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_AGENT_GRACE_MS = 30_000;

/** The heartbeat for a grace period: six within it, so a late one or two cost nothing. */
export const heartbeatFor = (graceMs: number) => Math.min(5000, Math.max(20, Math.floor(graceMs / 6)));

interface Held {
  agent: AgentKey;
  /** Subscriptions open here. */
  streams: number;
  /** Its last request, or its last stream's end (ms). */
  lastSeen: number;
  /** Its arrival, recorded (or not: then the next heartbeat records it). */
  arrival: Promise<void>;
  recorded: boolean;
}

const keyOf = (a: AgentKey) => `${a.modelId} ${a.kind} ${a.entity}`;

/** The agent an actor is, or null for a person. */
export function agentOf(actor: Actor | null): AgentKey | null {
  if (!actor || actor.kind === "person") return null;
  return { modelId: actor.modelId, kind: actor.kind, entity: actor.kind === "machine" ? actor.machine : actor.unit };
}

export class AgentPresence {
  /** This process, as the database knows it. */
  readonly id = randomUUID();
  readonly label = `${hostname()} pid ${process.pid}`;
  readonly graceMs: number;
  readonly heartbeatMs: number;
  private readonly agents = new Map<string, Held>();
  /** Departures not yet written (a failed write is tried again at the next heartbeat). */
  private departed: (AgentKey & { at: number })[] = [];
  /** Arrivals asked for in this turn, written together. */
  private arriving: { agents: Held[]; written: Promise<void> } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private beat: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly reportOutage = outageReporter((cause) =>
    this.log(`presence: the database is out of reach (${cause}); trying again every ${this.heartbeatMs} ms`),
  );
  private readonly log: (line: string) => void;

  constructor(
    private readonly db: Database,
    options: PresenceOptions,
  ) {
    this.graceMs = options.graceMs;
    this.heartbeatMs = options.heartbeatMs ?? heartbeatFor(options.graceMs);
    this.log = options.log ?? ((line) => loggerFor("presence").warn(line));
  }

  /** Takes the lease (before the port opens: agents arriving find the process known), then beats. */
  async start(): Promise<void> {
    await renewLease(this.db, { id: this.id, label: this.label, graceMs: this.graceMs });
    this.schedule();
  }

  /** The next heartbeat, once this one is over: a slow one delays the next rather than piling up behind it. */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.beat = this.heartbeat().finally(() => this.schedule());
    }, this.heartbeatMs);
    this.timer.unref();
  }

  /**
   * Stops beating, with a last renewal: the grace of the agents it held starts now, and a process started in its place
   * within it takes them over without any of them reading lost. Their departures are not written, for the same reason.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.beat;
    await renewLease(this.db, { id: this.id, label: this.label, graceMs: this.graceMs }).catch(() => {});
  }

  /** How many agents this process holds (diagnostics, tests). */
  get held(): number {
    return this.agents.size;
  }

  /** An operation by `actor`: resolves once its arrival is recorded (at once for an agent already held here). */
  seen(actor: Actor | null): Promise<void> | undefined {
    const agent = agentOf(actor);
    if (!agent) return undefined;
    const key = keyOf(agent);
    const held = this.agents.get(key);
    if (held) {
      held.lastSeen = Date.now();
      return held.arrival;
    }
    const arriving: Held = { agent, streams: 0, lastSeen: Date.now(), arrival: Promise.resolve(), recorded: false };
    arriving.arrival = this.arrive(arriving);
    this.agents.set(key, arriving);
    this.departed = this.departed.filter((d) => keyOf(d) !== key);
    return arriving.arrival;
  }

  /** A subscription by `actor` opened; returns what to call when it ends (once). */
  streamOpened(actor: Actor | null): () => void {
    const agent = agentOf(actor);
    if (!agent) return () => {};
    void this.seen(actor);
    const held = this.agents.get(keyOf(agent))!;
    held.streams++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      held.streams--;
      held.lastSeen = Date.now();
    };
  }

  /** Arrivals in one turn go in one statement; each waits for it. A failure is logged, and left to the heartbeat. */
  private arrive(held: Held): Promise<void> {
    if (!this.arriving) {
      const batch = { agents: [] as Held[], written: Promise.resolve() };
      batch.written = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        this.arriving = null;
        try {
          await agentsHeld(
            this.db,
            this.id,
            batch.agents.map((h) => h.agent),
          );
          for (const h of batch.agents) h.recorded = true;
        } catch (error) {
          this.log(`presence: could not record ${batch.agents.length} agent(s) arriving: ${failureText(error)}`);
        }
      });
      this.arriving = batch;
    }
    this.arriving.agents.push(held);
    return this.arriving.written;
  }

  /** Renews the lease, writes departures, takes back its agents where their rows say otherwise, sweeps. */
  private async heartbeat(): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    for (const [key, held] of this.agents)
      if (held.streams === 0 && now - held.lastSeen >= this.heartbeatMs && held.recorded) {
        this.agents.delete(key);
        this.departed.push({ ...held.agent, at: held.lastSeen });
      }
    const steps: [string, () => Promise<unknown>][] = [
      ["renew its lease", () => renewLease(this.db, { id: this.id, label: this.label, graceMs: this.graceMs })],
      [
        "record agents leaving",
        async () => {
          const left = this.departed;
          if (left.length === 0) return;
          const at = Date.now();
          await agentsLeft(
            this.db,
            this.id,
            left.map((d) => ({ modelId: d.modelId, kind: d.kind, entity: d.entity, agoMs: at - d.at })),
            this.graceMs,
          );
          this.departed = this.departed.filter((d) => !left.includes(d));
        },
      ],
      [
        "record its agents",
        async () => {
          const held = [...this.agents.values()];
          const unrecorded = held.filter((h) => !h.recorded);
          await agentsHeld(
            this.db,
            this.id,
            unrecorded.map((h) => h.agent),
          );
          for (const h of unrecorded) h.recorded = true;
          await agentsHeld(
            this.db,
            this.id,
            held.filter((h) => !unrecorded.includes(h)).map((h) => h.agent),
            true,
          );
        },
      ],
      ["sweep for lost agents", () => sweepLostAgents(this.db)],
    ];
    for (const [what, step] of steps) {
      if (this.stopped) return;
      try {
        await step();
      } catch (error) {
        // The database out of reach fails every step alike: said once every few seconds, and the rest left to the next beat.
        if (!unavailable(error)) this.log(`presence: could not ${what}: ${failureText(error)}`);
        else {
          this.reportOutage(error);
          return;
        }
      }
    }
  }
}

/**
 * Ends exactly once, whichever way the stream ends: done, returned (its socket closed), thrown, or failed. Its `next()`
 * chains promises rather than awaits, as MappedStream's (shared-execution.ts): an agent's stream waits for hours.
 */
class Counted<T> implements AsyncIterableIterator<T> {
  private readonly iterator: AsyncIterator<T>;

  constructor(
    source: AsyncIterable<T>,
    private readonly ended: () => void,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  next(): Promise<IteratorResult<T>> {
    return this.iterator.next().then(
      (step) => {
        if (step.done) this.ended();
        return step;
      },
      (error: unknown) => {
        this.ended();
        throw error;
      },
    );
  }

  async return(): Promise<IteratorResult<T>> {
    this.ended();
    return (await this.iterator.return?.()) ?? { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
    this.ended();
    if (this.iterator.throw) return this.iterator.throw(error);
    throw error;
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

/** Counts every subscription an agent holds open, on either transport, for as long as it is open. */
export function usePresence(presence: AgentPresence | undefined): Plugin<Context> {
  if (!presence) return {};
  return {
    onSubscribe({ args }) {
      const actor = args.contextValue.actor;
      if (!agentOf(actor)) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!(Symbol.asyncIterator in (result as object))) return;
          setResult(new Counted(result as AsyncIterable<unknown>, presence.streamOpened(actor)) as never);
        },
      };
    },
  };
}
