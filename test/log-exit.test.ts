// The server's JSON log is written asynchronously (src/core/log.ts); a fatal error must not cost the lines before it
// (the first start's admin token is one of them).
import { execFileSync, fork } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "lifeline-log-exit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pipe (a FIFO) whose reading end is read only when the test says, unlike a child process's own stdout pipe. */
function heldPipe(): { readFd: number; writeFd: number } {
  const path = join(dir, "stdout");
  execFileSync("mkfifo", [path]);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return { readFd, writeFd: openSync(path, "w") };
}

describe("exiting after a fatal line", () => {
  it("writes every line logged before it, in order, though a write of them waits on a full pipe", async () => {
    const lines = 1_000;
    const { readFd, writeFd } = heldPipe();
    const child = fork("test/support/log-then-exit.ts", [String(lines)], {
      execArgv: ["--import", "tsx"],
      // No LIFELINE_LOG_FORMAT: the log chooses by looking at process.stdout, as the server's does.
      env: { ...process.env, LIFELINE_LOG_FORMAT: undefined, LIFELINE_LOG: "info" },
      stdio: ["ignore", writeFd, "inherit", "ipc"],
    });
    closeSync(writeFd);
    const code = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const output = new Promise<string>((resolve) => {
      child.once("message", () => {
        const chunks: Buffer[] = [];
        new Socket({ fd: readFd, readable: true, writable: false })
          .on("data", (chunk: Buffer) => chunks.push(chunk))
          .on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      });
    });

    const messages = (await output)
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(await code).toBe(3);
    expect(messages).toEqual([...Array.from({ length: lines }, (_, i) => `line ${i}`), "the last line"]);
  });
});
