// Specification of the frame start the shared frames are written with: read back by
// ws's own Receiver (what a Node client parses with), a frame made of the start, a
// shared payload and the text after it is one text message, for every header size
// RFC 6455 §5.2 has (7-bit, 16-bit and 64-bit payload lengths).

import { describe, expect, it } from "vitest";
// @ts-expect-error ws ships Receiver (its ESM entry exports it) without a type declaration
import { Receiver } from "ws";
import { textFrame, textFrameStart } from "../src/server/websocket-frame.js";

function received(pieces: Buffer[]): Promise<string[]> {
  const receiver = new Receiver({ isServer: false, maxPayload: 0, allowSynchronousEvents: true });
  const messages: string[] = [];
  receiver.on("message", (data: Buffer, isBinary: boolean) => messages.push(`${isBinary ? "binary" : "text"}:${data}`));
  return new Promise((resolve, reject) => {
    receiver.on("error", reject);
    receiver.write(Buffer.concat(pieces), () => resolve(messages));
  });
}

const payloadOf = (chars: number) => `"${"é".repeat(Math.floor(chars / 2))}${"x".repeat(chars % 2)}"`;

function frame(before: string, payloadChars: number, after: string): { pieces: Buffer[]; text: string } {
  const payload = payloadOf(payloadChars);
  const shared = Buffer.from(payload);
  const length = Buffer.byteLength(before) + shared.length + Buffer.byteLength(after);
  return { pieces: [textFrameStart(length, before), shared, Buffer.from(after)], text: before + payload + after };
}

describe("a shared frame's start", () => {
  for (const [header, chars] of [
    ["7-bit", 40],
    ["7-bit, at its most", 90],
    ["16-bit", 100],
    ["16-bit, at its most", 32_700],
    ["64-bit", 40_000],
  ] as const) {
    it(`makes one text message of start, shared payload and the rest (${header} length)`, async () => {
      const { pieces, text } = frame('{"id":"sub-ü","type":"next","payload":', chars, "}");
      expect(await received(pieces)).toEqual([`text:${text}`]);
    });
  }

  it("gives each frame its own length, so frames written back to back stay apart", async () => {
    const a = frame('{"id":"1","payload":', 10, "}");
    const b = frame('{"id":"2","payload":', 70_000, "}");
    expect(await received([...a.pieces, ...b.pieces])).toEqual([`text:${a.text}`, `text:${b.text}`]);
  });
});

describe("a whole frame", () => {
  for (const [header, chars] of [
    ["7-bit", 40],
    ["16-bit", 100],
    ["64-bit", 40_000],
  ] as const) {
    it(`is one text message of its prefix, payload and the rest (${header} length)`, async () => {
      const before = '{"id":"sub-ü","type":"next","payload":';
      const payload = payloadOf(chars);
      expect(await received([textFrame(before, Buffer.from(payload), "}")])).toEqual([`text:${before}${payload}}`]);
    });
  }
});
