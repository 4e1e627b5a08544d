// The dummy cloud's state on disk, so the cloud outlives the process that runs
// it: without it, a restarted server on a persistent store would find its
// machines recorded with instance ids the new, empty cloud never heard of, and
// no machine agent would run for them. One JSON file, replaced whole after
// every change by writing a temporary file beside it and renaming it over the
// old one (a rename within a directory is atomic), so a crash at any moment
// leaves either the old state or the new one, never half of each.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
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

/** Bumped when the file's shape changes, so an old file is refused by name rather than misread. */
const VERSION = 1;

/** The file cannot be used; the cloud refuses to start rather than overwrite what may be someone's instances. */
export class DummyStateError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`the dummy cloud's file ${file} ${reason}; fix it, or delete it to start with an empty cloud`);
    this.name = "DummyStateError";
  }
}

/** The state in `file`, or null when there is no file yet (a cloud that never ran). */
export function readDummyState(file: string): DummyState | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new DummyStateError(file, `cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DummyStateError(file, `is not JSON (${(error as Error).message})`);
  }
  const state = parsed as Partial<DummyState> & { version?: unknown };
  if (state?.version !== VERSION) throw new DummyStateError(file, `has version ${String(state?.version)}, not ${VERSION}`);
  if (
    !Number.isInteger(state.nextNumber) ||
    !Number.isInteger(state.lastZone) ||
    !Number.isInteger(state.failingStarts) ||
    typeof state.failureMessage !== "string" ||
    (state.refusing !== null && typeof state.refusing !== "string") ||
    !Array.isArray(state.instances) ||
    !state.instances.every((s) => typeof s?.instance?.id === "string")
  )
    throw new DummyStateError(file, "is missing fields or has fields of the wrong type");
  return {
    nextNumber: state.nextNumber!,
    lastZone: state.lastZone!,
    failingStarts: state.failingStarts!,
    failureMessage: state.failureMessage,
    refusing: state.refusing,
    instances: state.instances,
  };
}

/**
 * Replaces `file` with `state`, atomically. Synchronous on purpose: the file
 * is written in the same turn as the change, so writes can never land out of
 * order, and the dummy cloud's file is small. Readable by its owner only: it
 * holds every machine agent's credentials (the instances' userData).
 */
export function writeDummyState(file: string, state: DummyState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ version: VERSION, ...state }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}
