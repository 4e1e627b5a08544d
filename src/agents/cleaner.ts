// The cleaner (Juju's worker/cleaner): runs a model's
// due cleanups whenever one is queued (it watches the queue, as Juju's watches its
// cleanups collection), when a queued one comes due, and on a timer (a failed
// cleanup's retry). It runs as the model's manager machine agent, like the
// provisioner. Cleanups work in bounded batches and are idempotent on the
// server, so a cleaner killed at any point and started again loses nothing; a
// cleanup that fails is recorded and retried there, and does not block others.
import { ChangesDocument, RunCleanupsDocument } from "../client/graphql.js";
import { type AgentConnection, ApiError } from "./connection.js";
import { SerialPasses } from "./serial.js";

export interface CleanerOptions {
  model: string;
  /** The manager machine agent's credentials. */
  token: string;
  /** How often it runs with nothing waking it (Juju: 30 s). */
  intervalMs?: number;
  /** Batches per runCleanups call: bounded, so one call never holds the server long. */
  maxBatches?: number;
  log?: (line: string) => void;
}

export class Cleaner {
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The next poke for a cleanup queued to run later (a forced removal's max-wait), if sooner than the timer's. */
  private dueTimer: NodeJS.Timeout | null = null;
  private dueAt = Number.POSITIVE_INFINITY;
  private readonly passes: SerialPasses;
  private readonly log: (line: string) => void;

  constructor(
    private readonly api: AgentConnection,
    private readonly options: CleanerOptions,
  ) {
    this.log = options.log ?? (() => {});
    this.passes = new SerialPasses(
      () => this.clean(),
      (error) => {
        // Its model was destroyed: the manager machine is Dead, so its credentials stop working. Nothing is left to clean.
        if (error instanceof ApiError && error.code === "UNAUTHENTICATED") {
          this.log(`cleaner of ${options.model}: stopping, as its model's manager machine no longer acts (${error.message})`);
          void this.stop();
          return;
        }
        this.log(`cleaner of ${options.model}: ${String(error)}`);
      },
    );
  }

  start(): void {
    const { model, token } = this.options;
    // The queue's own stream: its first events are the cleanups already queued, then one for each queued after. Only
    // those wake it, not every entity going Dying or Dead (most queue nothing). Pokes during a run coalesce into one more.
    this.unsubscribe = this.api.subscribe(ChangesDocument, { model, kinds: ["CLEANUP"] }, token, {
      next: ({ changes: event }) => {
        if (event.removed || event.type === "BOOKMARK") return;
        const dueAt = Date.parse(event.cleanup?.dueAt ?? "");
        if (dueAt > Date.now()) this.pokeAt(dueAt);
        else this.passes.poke();
      },
      failed: (error) => this.log(`cleaner of ${model}: its stream ended: ${error.message}`),
    });
    this.timer = setInterval(() => this.passes.poke(), this.options.intervalMs ?? 30_000);
  }

  /** Runs the queue once `dueAt` has come, unless an earlier poke is already set (a run takes every cleanup then due). */
  private pokeAt(dueAt: number): void {
    if (dueAt >= this.dueAt) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueAt = dueAt;
    // Past the longest wait a timer takes (about 24.8 days), the periodic run is there.
    this.dueTimer = setTimeout(
      () => {
        this.dueTimer = null;
        this.dueAt = Number.POSITIVE_INFINITY;
        this.passes.poke();
      },
      Math.min(dueAt - Date.now(), 2 ** 31 - 1),
    );
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.unsubscribe?.();
    await this.passes.stop();
  }

  /** Runs due cleanups until none is left to run now (the rest wait on agents, or come due later). */
  private async clean(): Promise<void> {
    const { model, token } = this.options;
    for (;;) {
      const report = (await this.api.request(RunCleanupsDocument, { model, maxBatches: this.options.maxBatches ?? 50 }, token)).runCleanups;
      if (report.finished) this.log(`cleaner of ${model}: ${report.finished} cleanup(s) done, ${report.remaining} queued`);
      // A full quota of batches means more may be due now; anything less, and the queue is as far along as it can get.
      if (report.batches < (this.options.maxBatches ?? 50)) return;
    }
  }
}
