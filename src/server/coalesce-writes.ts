// Coalesces the WebSocket frames a connection is sent within one turn of the event
// loop into one write. When a change fans out to many subscriptions multiplexed on one
// socket, graphql-ws sends one frame per subscription; written one by one they cost a
// system call each, which profiling showed to be the largest cost of a delivery. Corking
// the TCP socket until the turn ends turns them into a single writev. Latency is
// unchanged: the frames leave in the same turn they were sent in.
import type { Socket } from "node:net";
import type { WebSocket, WebSocketServer } from "ws";

export function coalesceWrites(wss: WebSocketServer): void {
  wss.on("connection", (ws: WebSocket) => {
    const tcp = (ws as unknown as { _socket?: Socket })._socket;
    if (!tcp || typeof tcp.cork !== "function") return;
    const send = ws.send.bind(ws) as (...args: unknown[]) => void;
    let corked = false;
    ws.send = ((...args: unknown[]) => {
      if (!corked) {
        corked = true;
        tcp.cork();
        setImmediate(() => {
          corked = false;
          tcp.uncork();
        });
      }
      send(...args);
    }) as WebSocket["send"];
  });
}
