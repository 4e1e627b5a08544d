// Specification of shared frames: subscriptions that share an operation and its
// variables get one serialization of each event's payload, written beside each
// subscription's own frame, over real graphql-ws sockets.
import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SENT_AHEAD_BYTES } from "../src/server/coalesce-writes.js";
import { sharedFrameCounts } from "../src/server/shared-frames.js";
import { adminHeaders } from "./support/store.js";
import { CHANGES, subscribe, useLiveServer } from "./support/streams.js";

const live = useLiveServer();

describe("shared frames", () => {
  it("serialize each event's payload once for every subscription sharing the operation", async () => {
    const model = await live.newModel();
    const streams = [0, 1, 2].map(() => subscribe(live.url, CHANGES, { model: model.name, kinds: ["MACHINE"] }));
    await Promise.all(streams.map((s) => s.synced()));
    const before = { ...sharedFrameCounts };
    await live.ok(`mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`, { m: model.name });
    await Promise.all(streams.map((s) => s.until((x) => x.changes.length === 1)));
    expect(streams.map((s) => [s.changes[0]!.kind, s.changes[0]!.entity])).toEqual(Array(3).fill(["MACHINE", "1"]));
    expect(sharedFrameCounts.serialized - before.serialized).toBe(1);
    expect(sharedFrameCounts.sent - before.sent).toBe(3);
  });

  it("of a live stream go straight to its socket as the feed offers them, past graphql-ws's iteration", async () => {
    const model = await live.newModel();
    const streams = [0, 1].map(() => subscribe(live.url, CHANGES, { model: model.name, kinds: ["MACHINE"] }));
    await Promise.all(streams.map((s) => s.synced()));
    const before = { ...sharedFrameCounts };
    for (let i = 0; i < 3; i++) await live.ok(`mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`, { m: model.name });
    await Promise.all(streams.map((s) => s.until((x) => x.changes.length === 3)));
    expect(streams.map((s) => s.changes.map((c) => c.entity))).toEqual([
      ["1", "2", "3"],
      ["1", "2", "3"],
    ]);
    expect(sharedFrameCounts.live - before.live).toBe(6);
  });

  it("of one change to more subscriptions on one socket than SENT_AHEAD_BYTES holds all go live: a turn's own frames are no slow reader", async () => {
    const model = await live.newModel();
    const client = createClient({ url: live.url.replace(/^http/, "ws"), webSocketImpl: WebSocket, connectionParams: adminHeaders });
    const count = 400; // each frame is a few hundred bytes: well past SENT_AHEAD_BYTES in all
    const received = Array.from({ length: count }, () => [] as string[]);
    const synced = new Set<number>();
    const ends = Array.from({ length: count }, (_, i) =>
      client.subscribe<{ changes: { type: string; entity: string } }>(
        { query: CHANGES, variables: { model: model.name, kinds: ["MACHINE"] } },
        {
          next: ({ data }) => {
            if (data?.changes.type === "BOOKMARK") synced.add(i);
            if (data?.changes.type === "CHANGE") received[i]!.push(data.changes.entity);
          },
          error: () => {},
          complete: () => {},
        },
      ),
    );
    try {
      await expect.poll(() => synced.size, { timeout: 30_000 }).toBe(count);
      const before = { ...sharedFrameCounts };
      await live.ok(`mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`, { m: model.name });
      await expect.poll(() => received.filter((r) => r.length === 1).length, { timeout: 30_000 }).toBe(count);
      expect(sharedFrameCounts.serialized - before.serialized).toBe(1);
      expect((sharedFrameCounts.sent - before.sent) * 200).toBeGreaterThan(SENT_AHEAD_BYTES);
      expect(sharedFrameCounts.live - before.live).toBe(count);
    } finally {
      for (const end of ends) end();
      await client.dispose();
    }
  });
});
