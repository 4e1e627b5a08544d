// What an open stream keeps (docs/decisions.md, "Memory"): a process's agents hold thousands of streams open for
// hours, so nothing of the message that opened one may live as long as it does. graphql-ws's adapter for ws awaited
// the whole subscription in the frame that received its message, keeping the message's Buffer (and the read chunk
// it was cut from) for the stream's life; patches/graphql-ws+6.4.2.patch hands the message on without awaiting it.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import WebSocket from "ws";
import { CHANGES, subscribe, useLiveServer } from "./support/streams.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const live = useLiveServer();

/** The subscribe messages the server's sockets receive, held weakly: how many came, how many are still alive. */
function subscribeMessagesReceived(): { seen: () => number; held: () => number; stop: () => void } {
  const refs: WeakRef<Buffer>[] = [];
  const emit = WebSocket.prototype.emit;
  WebSocket.prototype.emit = function (this: WebSocket, event: string | symbol, ...args: unknown[]) {
    const data = args[0];
    if (event === "message" && Buffer.isBuffer(data) && data.includes('"type":"subscribe"')) refs.push(new WeakRef(data));
    return emit.call(this, event, ...args);
  } as typeof emit;
  return {
    seen: () => refs.length,
    held: () => refs.filter((ref) => ref.deref() !== undefined).length,
    stop: () => {
      WebSocket.prototype.emit = emit;
    },
  };
}

it("an open stream keeps nothing of the message that opened it: its Buffer is collected while the stream runs", async () => {
  const { name } = await live.newModel();
  const received = subscribeMessagesReceived();
  try {
    const stream = subscribe(live.url, CHANGES, { model: name });
    await stream.synced();
    // Counted by a strong tally, not by what is still alive: a collection may come before this line does.
    expect(received.seen()).toBe(1);
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(received.held()).toBe(0);
    // The stream still runs: a change made now reaches it.
    await live.ok(`mutation ($m: String!) { setConstraints(input: { model: $m, constraints: "cores=2" }) { text } }`, { m: name });
    await stream.until((s) => s.changes.some((e) => e.kind === "MODEL"));
  } finally {
    received.stop();
  }
});
