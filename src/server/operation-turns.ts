// Operations that arrive together over graphql-ws take turns of the event loop. One
// socket's read can hold a thousand subscribe messages, and each operation's start
// (parse, limits, context, its first reads) runs on promise jobs, which the event loop
// runs to the end before any socket's next read: 1,000 subscriptions held every other
// client for the whole burst. A few begin in each turn; the rest wait for the next,
// after the other clients' I/O.
import { setImmediate } from "node:timers";

export type Turn = () => Promise<void> | undefined;

/** A gate: `perTurn` operations pass it in each turn of the event loop, the others in later turns, in order. */
export function operationTurns(perTurn: number): Turn {
  let begun = 0;
  let next: Promise<void> | null = null;
  let waiting = 0;
  const nextTurn = () =>
    (next ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        begun = 0;
        next = null;
        resolve();
      }),
    ));
  return () => {
    // Nothing waits while the turn has room and nobody is queued: an agent's lone call passes at once.
    if (begun < perTurn && waiting === 0) {
      begun++;
      if (begun === 1) void nextTurn();
      return undefined;
    }
    waiting++;
    return (async () => {
      for (;;) {
        await nextTurn();
        if (begun < perTurn) break;
      }
      waiting--;
      begun++;
    })();
  };
}
