// A TCP port free on the loopback address now, for a server a test (or a benchmark's peer) must start on a port it
// knows beforehand.
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A port free now below the system's ephemeral range (32768 and up on Linux), for a server a test stops and starts
 * again on the same port: on one from the ephemeral range, an outgoing connection (another test file's, say) may take
 * the port as its own in between, and the restart fails with EADDRINUSE.
 */
export async function restartablePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port between 20000 and 32000");
}
