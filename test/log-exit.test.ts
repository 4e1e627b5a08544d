// The server's JSON log is written asynchronously (src/core/log.ts); a fatal error must not cost the lines before it
// (the first start's admin token is one of them).
import { execFileSync, fork } from "node:child_process";
import { closeSync, constants, createReadStream, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "lifeline-log-exit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("exiting after a fatal line", () => {
  it("writes every line logged before it, in order, though a write of them waits on a full pipe", async () => {
    const lines = 1_000;
    // A FIFO, not the child's own stdout pipe, which this process would keep reading into memory up to 64 KiB: nothing
    // reads it until the child says it is about to exit. Opening its reading end without blocking lets the writing
    // end open; it is never read from.
    const fifo = join(dir, "stdout");
    execFileSync("mkfifo", [fifo]);
    const held = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeFd = openSync(fifo, "w");
    const child = fork("test/support/log-then-exit.ts", [String(lines)], {
      execArgv: ["--import", "tsx"],
      // No LIFELINE_LOG_FORMAT: the log chooses by looking at process.stdout, as the server's does.
      env: { ...process.env, LIFELINE_LOG_FORMAT: undefined, LIFELINE_LOG: "info" },
      stdio: ["ignore", writeFd, "inherit", "ipc"],
    });
    closeSync(writeFd);
    const code = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const output = new Promise<string>((resolve, reject) => {
      child.once("message", () => {
        const chunks: Buffer[] = [];
        createReadStream(fifo)
          .on("data", (chunk) => chunks.push(chunk as Buffer))
          .on("error", reject)
          .on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      });
    });

    try {
      const messages = (await output)
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(await code).toBe(3);
      expect(messages).toEqual([...Array.from({ length: lines }, (_, i) => `line ${i}`), "the last line"]);
    } finally {
      closeSync(held);
    }
  });
});
