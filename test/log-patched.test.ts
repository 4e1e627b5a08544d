// The installed sonic-boom (pino's asynchronous destination, the log's when it is not a terminal) carries Lifeline's
// patch (patches/, applied by patch-package on `npm install`): while a write is in flight, lines gather in a string
// grown by +=, and measuring that string in bytes for every line flattened it, copying up to 16 KiB a line. With a
// thousand agents logging a line a hook, that was a fifteenth of the API's allocations (docs/decisions.md, "Memory").
import { openSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, expect, it, vi } from "vitest";

/** The sonic-boom pino loads (the package pino-pretty brings is another, used synchronously). */
const SonicBoom = createRequire(createRequire(import.meta.url).resolve("pino"))("sonic-boom") as new (options: {
  fd: number;
  sync: boolean;
}) => { write(line: string): boolean; _writing: boolean; _bufs: string[] };

afterEach(() => vi.restoreAllMocks());

it("a line written while a write is in flight is measured once, the lines gathered before it not again", () => {
  const destination = new SonicBoom({ fd: openSync("/dev/null", "w"), sync: false });
  destination._writing = true; // as while an fs.write is pending: the lines gather in memory
  const measured = vi.spyOn(Buffer, "byteLength");
  const line = `${JSON.stringify({ level: "info", agent: "unit-scale-1", msg: "unit-scale-1: started" })}\n`;
  for (let i = 0; i < 100; i++) destination.write(line);
  expect(destination._bufs.join("")).toBe(line.repeat(100));
  expect(measured.mock.calls.map(([measuredText]) => measuredText)).toEqual(Array(100).fill(line));
});
