// Specification of a socket's turn batch (src/net/turn-batch.ts): what is gathered in a
// turn leaves in one write at its end, in order, and another write to the socket in the
// same turn sends what was gathered first.
import { describe, expect, it } from "vitest";
import { appendToTurnBatch, flushTurnBatch } from "../src/net/turn-batch.js";

/** A socket that records each write it is handed. */
const recording = () => {
  const writes: string[] = [];
  return { writes, writable: true, write: (chunk: Buffer) => writes.push(chunk.toString()) > 0 };
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const b = (text: string) => Buffer.from(text);

describe("a turn batch", () => {
  it("sends what a turn gathered as one write once the turn ends, in the order gathered", async () => {
    const socket = recording();
    appendToTurnBatch(socket, b("a1"), b("a2"));
    appendToTurnBatch(socket, b("b"));
    expect(socket.writes).toEqual([]);
    await nextTurn();
    expect(socket.writes).toEqual(["a1a2b"]);
  });

  it("is sent first when something else writes to the socket in the same turn", async () => {
    const socket = recording();
    appendToTurnBatch(socket, b("live"));
    flushTurnBatch(socket); // what a writer calls before its own write
    socket.write(b("other"));
    await nextTurn();
    expect(socket.writes).toEqual(["live", "other"]);
  });

  it("keeps each socket's bytes to itself, and drops them for a socket that ended meanwhile", async () => {
    const open = recording();
    const ended = recording();
    appendToTurnBatch(open, b("x"));
    appendToTurnBatch(ended, b("y"));
    ended.writable = false;
    await nextTurn();
    expect([open.writes, ended.writes]).toEqual([["x"], []]);
  });
});
