// The benchmark as the agents send their calls: GraphQL over one graphql-ws socket
// (src/agents/connection.ts), each operation carrying its token in its extensions.
// Every request has a deadline, as over HTTP (bench/api.ts).
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { ApiTimeout } from "./api.js";
import { ADMIN_TOKEN } from "./lifeline-process.js";

/** One client's socket: its requests, one at a time or many, share it, as an agent process's do. */
export class WsApi {
  private readonly client: Client;

  constructor(url: string) {
    this.client = createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      lazy: true,
      lazyCloseTimeout: 60_000, // open for the whole run, as the agents' (graphql-ws closes an idle lazy socket at once by default)
      retryAttempts: 0, // a dropped socket fails the run: it says what was in flight
    });
  }

  /** Runs one query or mutation; resolves with `data`, throws its errors (or an ApiTimeout) naming `what` it was. */
  request<T>(what: string, query: string, variables: Record<string, unknown>, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          cancel();
          reject(new ApiTimeout(timeoutMs, `${what}: ${query}`));
        },
        Math.max(1, Math.round(timeoutMs)),
      );
      let answered = false;
      const cancel = this.client.subscribe<T>(
        { query, variables, extensions: { authorization: `Bearer ${ADMIN_TOKEN}` } },
        {
          next: (result) => {
            answered = true;
            clearTimeout(timer);
            if (result.errors) reject(new Error(`${what}: ${JSON.stringify(result.errors).slice(0, 2000)}`));
            else if (!result.data) reject(new Error(`${what}: an answer without data`));
            else resolve(result.data);
          },
          error: (error) => {
            clearTimeout(timer);
            reject(new Error(`${what}: ${error instanceof Error ? error.message : JSON.stringify(error)}`));
          },
          complete: () => {
            clearTimeout(timer);
            if (!answered) reject(new Error(`${what}: completed without an answer`));
          },
        },
      );
    });
  }

  close(): Promise<void> {
    return this.client.dispose() as Promise<void>;
  }
}
