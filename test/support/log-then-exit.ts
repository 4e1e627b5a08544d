// A process whose stdout nobody reads yet: it fills the pipe, logs more lines (the first write goes to the thread pool
// and finds the pipe full), tells its parent to start reading, logs one last line and exits as the server does on a
// fatal error. test/log-exit.test.ts reads what arrived.
import { writeSync } from "node:fs";
import { exitAfterLog, loggerFor } from "../../src/core/log.js";

// Looking at process.stdout (as the log does, when no format is set) makes the pipe non-blocking: a full pipe answers
// EAGAIN, and sonic-boom retries 100 ms later.
const log = loggerFor("test");
const blankLines = Buffer.alloc(64 * 1024, "\n");
for (;;) {
  try {
    writeSync(1, blankLines);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EAGAIN") break;
    throw error;
  }
}
const lines = Number(process.argv[2]);
for (let i = 0; i < lines; i++) log.info({ i }, `line ${i}`);
process.send!("ending");
exitAfterLog(3, () => log.fatal("the last line"));
