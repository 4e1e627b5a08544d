// Fresh streams' snapshots, read together. Each stream starts from a snapshot of what
// its watcher covers, read in a read-only transaction with the revision it stands at.
// A thousand agents open five streams each, and each snapshot was a transaction and a
// round trip of its own. Streams opened in one turn of the event loop (the requests of
// one socket read) now read their snapshots in one transaction: one BEGIN, their reads
// sent together, one COMMIT once every watcher has marked its last reads. A batch that
// fails reads each of its snapshots again alone, so one stream's failure is never
// another's.
import type { Database } from "../db/connect.js";
import { sentAhead } from "../db/sent-ahead.js";
import { type DbTx, inSnapshot, type Last } from "../db/transaction-runner.js";
import { type LogWindow, logWindow } from "./replay.js";
import type { EntityEvent } from "./stream-event.js";
import type { Watcher } from "./watchers.js";

/** A watcher's state and the revision it stands at, read in one snapshot. */
export interface SnapshotRead {
  revision: number;
  states: EntityEvent[];
}

interface Asked {
  modelId: string;
  watcher: Watcher;
  purpose: "snapshot" | "resume";
  resolve(read: SnapshotRead): void;
  reject(error: unknown): void;
}

/**
 * Snapshots one transaction reads at most: its statements stay few, and a slow one holds back few others. On PGlite,
 * which runs one transaction at a time for everyone and has no round trips to save, fewer: a batch there is what
 * another client's read may wait for.
 */
export const MAX_BATCH = 64;
export const MAX_BATCH_IN_PROCESS = 16;

export class SnapshotReads {
  private asked: Asked[] = [];
  /** Asked in earlier turns, not yet read: taken a batch at a time. */
  private waiting: Asked[] = [];
  private draining = false;

  constructor(
    private readonly db: Database,
    private readonly maxSnapshot: number,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  /** The watcher's state in `modelId` and the revision it stands at, read with the others asked for in this turn. */
  read(modelId: string, watcher: Watcher, purpose: "snapshot" | "resume"): Promise<SnapshotRead> {
    return new Promise<SnapshotRead>((resolve, reject) => {
      // After this turn's promise jobs, as DataLoader batches: the streams opened by one socket read are all asked by then.
      if (this.asked.length === 0) void Promise.resolve().then(() => process.nextTick(() => this.flush()));
      this.asked.push({ modelId, watcher, purpose, resolve, reject });
    });
  }

  private flush(): void {
    for (const asked of this.asked) this.waiting.push(asked);
    this.asked = [];
    if (!this.draining) void this.drain();
  }

  /**
   * One batch at a time, with a turn of the event loop between them: a thousand streams opened at once (one socket's
   * burst) were sixteen transactions started together, and every other request waited behind all of them (PGlite runs
   * one transaction at a time; PostgreSQL's pool had none left). Now another request waits for one batch at most.
   */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.waiting.length) {
        await this.together(this.waiting.splice(0, this.maxBatch));
        if (this.waiting.length) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.draining = false;
    }
  }

  private async together(batch: readonly Asked[]): Promise<void> {
    if (batch.length === 1) return void this.alone(batch[0]!);
    let outcomes: PromiseSettledResult<SnapshotRead>[];
    try {
      outcomes = await inSnapshot(this.db, (q, last) => {
        // One snapshot: a model's window is the same for every watcher of it, so the first of them reads it for all.
        const windows = new Map<string, Promise<LogWindow>>();
        const windowOf = (modelId: string) => {
          const read = windows.get(modelId) ?? windowRead(q, modelId);
          windows.set(modelId, read);
          return read;
        };
        // COMMIT goes once every watcher has marked its last reads (or finished without): behind all of them.
        const finals: Promise<unknown>[] = [];
        let unmarked = batch.length;
        const marked = () => {
          if (--unmarked === 0) last(Promise.all(finals)).catch(() => {}); // each watcher hears of its own reads' failure
        };
        return Promise.allSettled(
          batch.map(async ({ modelId, watcher, purpose }) => {
            let done = false;
            const mark: Last = (reads) => {
              if (!done) {
                done = true;
                finals.push(reads);
                marked();
              }
              return reads;
            };
            try {
              return await this.reading(q, modelId, watcher, purpose, mark, windowOf(modelId));
            } finally {
              if (!done) {
                done = true;
                marked();
              }
            }
          }),
        );
      });
    } catch {
      outcomes = batch.map(() => ({ status: "rejected", reason: undefined }));
    }
    for (const [i, asked] of batch.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.status === "fulfilled") asked.resolve(outcome.value);
      else void this.alone(asked); // perhaps failed behind another's failure: read again on its own
    }
  }

  private async alone({ modelId, watcher, purpose, resolve, reject }: Asked): Promise<void> {
    try {
      resolve(await inSnapshot(this.db, (q, last) => this.reading(q, modelId, watcher, purpose, last, windowRead(q, modelId))));
    } catch (error) {
      reject(error);
    }
  }

  /**
   * `window`: the log's window, sent first and awaited last. Every read of the transaction sees its one snapshot, so
   * the window agrees with the watcher's reads whatever their order, and travels with the first of them instead of
   * taking a round trip. A failed read ahead of it fails the snapshot first.
   */
  private async reading(
    q: DbTx,
    modelId: string,
    watcher: Watcher,
    purpose: "snapshot" | "resume",
    last: Last,
    window: Promise<LogWindow>,
  ): Promise<SnapshotRead> {
    const states = await watcher.snapshot(q, modelId, this.maxSnapshot, purpose, last);
    const { revision } = await window;
    return { revision, states };
  }
}

/** The log's window of `modelId`, sent at once (sentAhead), for a snapshot's reading to await last. */
const windowRead = (q: DbTx, modelId: string): Promise<LogWindow> => sentAhead(logWindow(q as unknown as Database, modelId));
