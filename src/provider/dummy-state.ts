// The dummy cloud's state on disk, so the cloud outlives the process that runs
// it: without it, a restarted server on a persistent store would find its
// machines recorded with instance ids the new, empty cloud never heard of, and
// no machine agent would run for them.
//
// Two files: a snapshot (`file`) and a journal beside it (`file.journal`). Each
// change is appended to the journal as one JSON line, so a change costs the
// same with ten instances as with ten thousand; rewriting the whole state
// (every instance's userData) on every change made N starts and N stops cost
// N². Once the journal outgrows the state (more than max(256, 2 × live
// instances) lines) the snapshot is written whole and the journal emptied:
// amortized O(1) a change.
//
// A crash at any moment leaves a state that reads back. The snapshot is
// replaced through a temporary file renamed over it (atomic within a
// directory). It carries a generation, and each journal line the generation it
// belongs to: compaction renames in the snapshot of generation g+1, then
// empties the journal, so a crash between the two leaves lines of generation g
// that are already in the snapshot, and reading skips them. A crash in the
// middle of an append leaves a torn last line, which reading ignores: its
// change's listeners were never told of it.
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Instance } from "./provider.js";

/** An instance as the cloud keeps it: with the userData it was started with, to boot it again with. */
export interface StoredInstance {
  instance: Instance;
  userData?: string;
}

/** Everything that makes the dummy cloud what it is, beyond its fixed catalog. */
export interface DummyState {
  /** The next instance number: ids and addresses derive from it, and are never reused. */
  nextNumber: number;
  /** Index of the zone used last, so the round-robin carries on where it was. */
  lastZone: number;
  failingStarts: number;
  failureMessage: string;
  /** The refusal rule's text (parsed again on load), or null. */
  refusing: string | null;
  /** Running and lost instances, oldest first. */
  instances: StoredInstance[];
}

/**
 * One change to the cloud, as a journal line records it. Replaying a change
 * twice leaves the state as once: each sets a value, none counts.
 */
export type DummyChange =
  | { change: "started"; instance: Instance; userData?: string; nextNumber: number; lastZone: number }
  | { change: "stopped"; id: string }
  | { change: "lost"; id: string }
  | { change: "faults"; failingStarts: number; failureMessage: string; refusing: string | null };

/** A journal line: a change, and the snapshot generation it comes after. */
type JournalLine = DummyChange & { generation: number };

/** The default capacity error, worded like a cloud's. */
export const DefaultFailureMessage = "insufficient capacity for the requested instance (injected by failNextStarts)";

/** A cloud that never ran: what a journal with no snapshot beside it is replayed onto. */
const emptyState = (): DummyState => ({
  nextNumber: 0,
  lastZone: -1,
  failingStarts: 0,
  failureMessage: DefaultFailureMessage,
  refusing: null,
  instances: [],
});

/**
 * Bumped when the snapshot's shape changes, so an old file is refused by name
 * rather than misread. Still 1 with the journal: `generation` is an addition,
 * and a snapshot without it reads as generation 0.
 */
const VERSION = 1;

/** Journal lines allowed before compaction, however few the instances: a small cloud is not rewritten every few changes. */
const MIN_JOURNAL_LINES = 256;

/** The files cannot be used; the cloud refuses to start rather than overwrite what may be someone's instances. */
export class DummyStateError extends Error {
  /** `file` is the one at fault; `alongside`, the other of the pair, must go too for an empty cloud. */
  constructor(
    readonly file: string,
    reason: string,
    alongside?: string,
  ) {
    super(
      `the dummy cloud's file ${file} ${reason}; fix it, or delete it${alongside ? ` and ${basename(alongside)} beside it` : ""} to start with an empty cloud`,
    );
    this.name = "DummyStateError";
  }
}

/** The text of `file`, or null when there is none. */
function readText(file: string, alongside: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new DummyStateError(file, `cannot be read (${(error as Error).message})`, alongside);
  }
}

function parseSnapshot(file: string, text: string, journal: string): { generation: number; state: DummyState } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DummyStateError(file, `is not JSON (${(error as Error).message})`, journal);
  }
  const state = parsed as Partial<DummyState> & { version?: unknown; generation?: unknown };
  if (state?.version !== VERSION) throw new DummyStateError(file, `has version ${String(state?.version)}, not ${VERSION}`, journal);
  const generation = state.generation ?? 0;
  if (
    !isGeneration(generation) ||
    !Number.isInteger(state.nextNumber) ||
    !Number.isInteger(state.lastZone) ||
    !Number.isInteger(state.failingStarts) ||
    typeof state.failureMessage !== "string" ||
    (state.refusing !== null && typeof state.refusing !== "string") ||
    !Array.isArray(state.instances) ||
    !state.instances.every((s) => typeof s?.instance?.id === "string")
  )
    throw new DummyStateError(file, "is missing fields or has fields of the wrong type", journal);
  return {
    generation,
    state: {
      nextNumber: state.nextNumber!,
      lastZone: state.lastZone!,
      failingStarts: state.failingStarts!,
      failureMessage: state.failureMessage,
      refusing: state.refusing,
      instances: state.instances,
    },
  };
}

const isGeneration = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

function isJournalLine(value: unknown): value is JournalLine {
  const line = (value ?? {}) as Record<string, unknown>;
  if (!isGeneration(line.generation)) return false;
  switch (line.change) {
    case "started":
      return (
        typeof (line.instance as { id?: unknown } | undefined)?.id === "string" &&
        (line.userData === undefined || typeof line.userData === "string") &&
        Number.isInteger(line.nextNumber) &&
        Number.isInteger(line.lastZone)
      );
    case "stopped":
    case "lost":
      return typeof line.id === "string";
    case "faults":
      return (
        Number.isInteger(line.failingStarts) &&
        typeof line.failureMessage === "string" &&
        (line.refusing === null || typeof line.refusing === "string")
      );
    default:
      return false;
  }
}

/** Applies one change to `state`, whose instances are in `instances` by id (in the order they started). */
function replay(state: DummyState, instances: Map<string, StoredInstance>, line: DummyChange): void {
  switch (line.change) {
    case "started":
      instances.set(
        line.instance.id,
        line.userData === undefined ? { instance: line.instance } : { instance: line.instance, userData: line.userData },
      );
      state.nextNumber = line.nextNumber;
      state.lastZone = line.lastZone;
      break;
    case "stopped":
      instances.delete(line.id);
      break;
    case "lost": {
      const stored = instances.get(line.id);
      if (stored) stored.instance = { ...stored.instance, status: "lost" };
      break;
    }
    case "faults":
      state.failingStarts = line.failingStarts;
      state.failureMessage = line.failureMessage;
      state.refusing = line.refusing;
      break;
  }
}

/**
 * The dummy cloud's pair of files: `read()` once, then `append()` each change.
 * Synchronous on purpose: a change is on disk in the same turn as it is made,
 * so appends never land out of order, and the files never lag behind what a
 * listener was told. Readable by their owner only: they hold every machine
 * agent's credentials (the instances' userData).
 */
export class DummyStateFile {
  readonly journal: string;
  /** The snapshot's generation, which new journal lines carry; null until read. */
  #generation: number | null = null;
  /** Lines in the journal, stale ones included: what compaction is weighed on. */
  #lines = 0;
  /** No snapshot yet (a cloud's first change writes it), or a torn last line a new line would be glued onto. */
  #mustCompact = false;

  constructor(readonly file: string) {
    this.journal = `${file}.journal`;
  }

  /** The snapshot with the journal replayed onto it, or null when neither file exists (a cloud that never ran). */
  read(): DummyState | null {
    const snapshotText = readText(this.file, this.journal);
    const journalText = readText(this.journal, this.file);
    if (snapshotText === null && journalText === null) {
      this.#reset(0, 0, true);
      return null;
    }
    const { generation, state } =
      snapshotText === null ? { generation: 0, state: emptyState() } : parseSnapshot(this.file, snapshotText, this.journal);
    const lines = (journalText ?? "").split("\n");
    // What follows the last newline: nothing, unless a crash tore the last append (each ends with its newline).
    const torn = lines.pop() !== "";
    const instances = new Map(state.instances.map((stored) => [stored.instance.id, stored]));
    for (const [index, text] of lines.entries()) {
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch (error) {
        throw new DummyStateError(this.journal, `has a line ${index + 1} that is not JSON (${(error as Error).message})`, this.file);
      }
      if (!isJournalLine(line))
        throw new DummyStateError(this.journal, `has a line ${index + 1} that is not a change the cloud knows`, this.file);
      // Newer than the snapshot: the snapshot is not the one these changes were made to.
      if (line.generation > generation)
        throw new DummyStateError(
          this.journal,
          `has changes of generation ${line.generation}, but ${basename(this.file)} ${snapshotText === null ? "is missing" : `is of generation ${generation}`}`,
          this.file,
        );
      // Older: already in the snapshot (a crash came between its rename and the journal's truncation).
      if (line.generation === generation) replay(state, instances, line);
    }
    state.instances = [...instances.values()];
    this.#reset(generation, lines.length, snapshotText === null || torn);
    return state;
  }

  /**
   * Records `changes`, already made to the cloud, as one append; or, when the
   * journal has grown past the state it records, writes `snapshot()` (which
   * includes them) instead. `live` is the number of instances the cloud has.
   */
  append(changes: readonly DummyChange[], live: number, snapshot: () => DummyState): void {
    if (this.#generation === null) throw new Error(`DummyStateFile.append: ${this.file} was never read, and would be overwritten`);
    if (changes.length === 0) return;
    if (this.#mustCompact || this.#lines + changes.length > Math.max(MIN_JOURNAL_LINES, 2 * live)) {
      this.#compact(snapshot());
      return;
    }
    const generation = this.#generation;
    const text = changes.map((change) => `${JSON.stringify({ generation, ...change })}\n`).join("");
    appendFileSync(this.journal, text, { mode: 0o600 });
    this.#lines += changes.length;
  }

  /** Replaces the snapshot with `state` as generation g+1, atomically, then empties the journal. */
  #compact(state: DummyState): void {
    const generation = this.#generation! + 1;
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: VERSION, generation, ...state })}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
    // From the rename on, lines of the old generation are stale, so new ones must carry the new one even if emptying fails.
    this.#generation = generation;
    writeFileSync(this.journal, "", { mode: 0o600 });
    this.#reset(generation, 0, false);
  }

  #reset(generation: number, lines: number, mustCompact: boolean): void {
    this.#generation = generation;
    this.#lines = lines;
    this.#mustCompact = mustCompact;
  }
}

/** The state in `file` and its journal, as a restarted cloud would see it, or null when there is neither (a cloud that never ran). */
export function readDummyState(file: string): DummyState | null {
  return new DummyStateFile(file).read();
}
