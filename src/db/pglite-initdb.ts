// A fresh PGlite data directory is made by initdb, which PGlite runs in a WebAssembly
// instance of its own. Once the directory exists that instance's memory (about 430 MiB)
// is garbage, but V8 frees it only in a full collection, which an idle server may not run
// for as long as it idles: a first `npm start` idled at 988 MiB, the same directory
// opened again at 477 MiB. So initdb runs on a thread of its own, whose heap goes with it
// when it exits, and the server then opens the directory as it opens any.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** The thread's code: PGlite makes the directory, closes it, and the thread ends. */
const INITDB = `
const { workerData } = require("node:worker_threads");
import(workerData.pglite).then(async ({ PGlite }) => {
  const client = await PGlite.create(workerData.dataDir);
  await client.close();
});
`;

/** Makes a PGlite data directory at `dataDir` (an absolute path) unless it holds one already. */
export async function initializeDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, "PG_VERSION"))) return;
  const worker = new Worker(INITDB, { eval: true, workerData: { pglite: import.meta.resolve("@electric-sql/pglite"), dataDir } });
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`PGlite's initdb thread exited with code ${code}`))));
  });
}
