// Guards a PGlite data directory with a lock file, so a second process on the
// same directory gets a clear error instead of a corrupt database.
import lockfile from "proper-lockfile";
import { exitAfterLog, loggerFor } from "../core/log.js";

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `The data directory ${dataDir} is in use by another Lifeline process (lock: ${dataDir}.lock). ` +
        `Stop that process, or point LIFELINE_DATA_DIR at another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

/** Takes the lock or throws DataDirLockedError; resolves to the release function. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    // The lock is refreshed while we live; one left by a crashed process goes stale and is taken over.
    return await lockfile.lock(dataDir, {
      retries: 0,
      stale: 15_000,
      update: 5_000,
      onCompromised: (error) =>
        exitAfterLog(70, () => loggerFor("store").fatal({ dataDir }, `lost the lock on ${dataDir}: ${error.message}`)),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new DataDirLockedError(dataDir);
    throw error;
  }
}
