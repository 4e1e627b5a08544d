// Which server process runs the agents. Agents of two processes on one
// database fight: each controller issues machine 0's credentials afresh, which
// locks out the other's provisioner, and each would keep a cloud of its own.
// So one process is elected: on PostgreSQL the one holding a session-level
// advisory lock (AGENTS_LOCK_KEY) on a connection of its own; the others try
// again every few seconds and take over once the holder's session ends (its
// process exits or dies, or its connection drops, and the server frees the
// lock). On PGlite the data directory's lock file already admits one process,
// which therefore always runs them.
import { isOutage, outageReporter } from "../db/outage.js";
import { type AdvisoryKey, SessionLock } from "../db/session-lock.js";

/**
 * The agents' advisory lock, in the two-int form: 0x4c494645 is "LIFE" in
 * ASCII, 1 names this election. Every Lifeline process on a database takes the
 * same key (advisory locks are per database); nothing else in Lifeline uses
 * this key space (the admin bootstrap's lock is a one-int, transaction lock).
 */
export const AGENTS_LOCK_KEY: AdvisoryKey = [0x4c494645, 1];

/** What an election needs of a lock. */
export interface LeaderLock {
  /** Takes it if nobody holds it; true when this process holds it now. */
  tryAcquire(): Promise<boolean>;
  /** Whether this process still holds it. */
  held(): Promise<boolean>;
  /** Who holds it, for the log. */
  holder(): Promise<string | null>;
  release(): Promise<void>;
  close(): Promise<void>;
}

/** PGlite's: the only process on its data directory always leads. */
export const soleProcess: LeaderLock = {
  tryAcquire: async () => true,
  held: async () => true,
  holder: async () => "this process",
  release: async () => {},
  close: async () => {},
};

/** PostgreSQL's: the agents' advisory lock, on a connection of its own to `databaseUrl`. */
export function agentsLock(databaseUrl: string, onLost: () => void): LeaderLock {
  return new SessionLock(databaseUrl, AGENTS_LOCK_KEY, { purpose: "agents", onLost });
}

/** The agents failed to start in the first round: for start() to rethrow, not for the round to log. */
class AgentsFailedError extends Error {
  constructor(cause: unknown) {
    super("the agents failed to start", { cause });
  }
}

export interface AgentLeaderOptions {
  /** Made with a callback that wakes the leader at once when the lock is lost (agentsLock's onLost). */
  lock: (lost: () => void) => LeaderLock;
  /** Starts the agents; resolves with the function that stops them. */
  lead: () => Promise<() => Promise<void>>;
  /** How often a follower tries to take over, and a leader checks that it still holds the lock. */
  retryMs: number;
  log: (line: string) => void;
}

export class AgentLeader {
  readonly #lock: LeaderLock;
  /** Stops the agents this process runs; null while it does not run them. */
  #stopAgents: (() => Promise<void>) | null = null;
  #stopped = false;
  #wake: () => void = () => {};
  #loop: Promise<void> | null = null;
  /** The holder last logged, so a follower says who leads once, not every round. */
  #lastHolder: string | null | undefined;
  readonly #reportOutage = outageReporter((cause) =>
    this.options.log(`agents: election: the database is out of reach (${cause}); trying again every ${this.options.retryMs} ms`),
  );

  constructor(private readonly options: AgentLeaderOptions) {
    this.#lock = options.lock(() => this.#wake());
  }

  /** Whether this process runs the agents now. */
  get leading(): boolean {
    return this.#stopAgents !== null;
  }

  /**
   * Starts electing; resolves after the first round, so a process that can lead runs its agents before it says it
   * is ready. Agents that fail to start in that round fail the start (a cloud file it cannot read, say): said at once.
   */
  async start(): Promise<void> {
    await this.#round(true);
    this.#loop = this.#run();
  }

  /**
   * The agents ended by themselves (their thread died): this process gives them up and the lock with them, so that a
   * later round starts them again, here or in another process, as after losing the lock.
   */
  async agentsEnded(reason: string): Promise<void> {
    if (!this.leading || this.#stopped) return;
    this.options.log(`agents: they stopped by themselves (${reason}); gave the lock up, starting them again later`);
    await this.#stepDown();
    await this.#lock.release();
  }

  /** Stops the agents if they run here, and leaves the election (the lock goes with its session). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake();
    await this.#loop;
    await this.#stepDown();
    await this.#lock.close();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.retryMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (!this.#stopped) await this.#round();
    }
  }

  /** One look at the lock: a leader that lost it stops its agents; a follower that gets it starts them. */
  async #round(first = false): Promise<void> {
    const { log } = this.options;
    try {
      if (this.leading) {
        if (await this.#lock.held()) return;
        log("agents: this process lost the agents' lock (its database connection dropped); stopping its agents");
        await this.#stepDown();
      }
      if (!(await this.#lock.tryAcquire())) {
        // Null: the holder let go after our try; the next round takes over.
        const holder = await this.#lock.holder();
        if (holder !== null && holder !== this.#lastHolder)
          log(`agents: they run in another process (${holder}); this one takes over if that one stops`);
        this.#lastHolder = holder;
        return;
      }
      this.#lastHolder = undefined;
      log(`agents: this process (pid ${process.pid}) runs the agents`);
      try {
        this.#stopAgents = await this.options.lead();
      } catch (error) {
        // Holding the lock without running the agents would keep every other process from running them.
        await this.#lock.release();
        if (first) throw new AgentsFailedError(error);
        log(`agents: could not start them: ${String(error)}; gave the lock up, trying again later`);
      }
    } catch (error) {
      if (error instanceof AgentsFailedError) throw error.cause;
      // Every round fails alike while the database is out of reach: said once every few seconds.
      if (isOutage(error)) this.#reportOutage(error);
      else log(`agents: election: ${String(error)}; trying again`);
    }
  }

  async #stepDown(): Promise<void> {
    const stop = this.#stopAgents;
    this.#stopAgents = null;
    await stop?.();
  }
}
