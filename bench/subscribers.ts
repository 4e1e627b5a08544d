// Many subscriptions, multiplexed over a few graphql-ws sockets, recording when each
// event arrives. It speaks the graphql-transport-ws protocol directly and reads only
// the revision out of each message, so the measuring side costs as little CPU as it can
// (it shares the machine's two cores with the server it measures). It also serves a
// peer's graphql-ws subscriptions (bench/peers.ts): given `snapshots: false`, each
// subscription is open once its subscribe is sent (the peer says nothing more until an
// event), and every message carrying a revision is an event.
import WebSocket from "ws";

const REVISION = /"revision":"(\d+)"/;
const TYPE = /"type":"(STATE|CHANGE|BOOKMARK)"/;

/** The admin token the benchmark's server is started with (LIFELINE_ADMIN_TOKEN). */
export const BENCH_TOKEN = "llt_bench-admin-token-not-secret";

export class Subscribers {
  /** arrivals[revision] = performance.now() of each delivery of that revision's CHANGE. */
  readonly arrivals = new Map<number, number[]>();
  private sockets: WebSocket[] = [];
  private synced = 0;
  private onSynced: (() => void) | null = null;
  lastRevision = new Map<string, number>();

  private readonly token: string;
  private readonly snapshots: boolean;

  constructor(
    private readonly url: string,
    readonly count: number,
    private readonly sockets_: number,
    options: { token?: string; snapshots?: boolean } = {},
  ) {
    this.token = options.token ?? BENCH_TOKEN;
    this.snapshots = options.snapshots ?? true;
  }

  /** Opens every subscription and resolves once each has finished its snapshot (or, without snapshots, once each is sent). */
  async open(query: string, variables: Record<string, unknown>): Promise<void> {
    const perSocket = Math.ceil(this.count / this.sockets_);
    const all = new Promise<void>((resolve) => (this.onSynced = resolve));
    for (let s = 0, opened = 0; opened < this.count; s++) {
      const n = Math.min(perSocket, this.count - opened);
      opened += n;
      await this.connect(s, n, query, variables);
    }
    if (this.snapshots) await all;
  }

  private connect(index: number, n: number, query: string, variables: Record<string, unknown>): Promise<void> {
    const ws = new WebSocket(this.url.replace(/^http/, "ws"), "graphql-transport-ws");
    this.sockets.push(ws);
    return new Promise((resolve, reject) => {
      ws.once("error", reject);
      ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${this.token}` } })));
      ws.on("message", (data) => {
        const text = data.toString();
        if (text.startsWith('{"type":"connection_ack"')) {
          for (let i = 0; i < n; i++) ws.send(JSON.stringify({ id: `${index}-${i}`, type: "subscribe", payload: { query, variables } }));
          return resolve();
        }
        const type = TYPE.exec(text)?.[1];
        if (type === "BOOKMARK") {
          // The first bookmark ends a subscription's snapshot.
          const id = /"id":"([^"]+)"/.exec(text)![1]!;
          if (!this.lastRevision.has(id)) {
            this.lastRevision.set(id, Number(REVISION.exec(text)![1]));
            if (++this.synced === this.count) this.onSynced?.();
          }
        } else if (type === "CHANGE" || (type === undefined && !this.snapshots && REVISION.test(text))) {
          const revision = Number(REVISION.exec(text)![1]);
          const at = performance.now();
          let list = this.arrivals.get(revision);
          if (!list) {
            list = [];
            this.arrivals.set(revision, list);
          }
          list.push(at);
        } else if (text.includes('"type":"error"') || text.includes('"errors":[')) {
          console.error("bench: subscription error:", text.slice(0, 300));
        }
      });
    });
  }

  /** Resolves when every subscription has received `revision`, or at the deadline. */
  async delivered(revision: number, deadlineMs: number): Promise<boolean> {
    const deadline = performance.now() + deadlineMs;
    while ((this.arrivals.get(revision)?.length ?? 0) < this.count) {
      if (performance.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 5));
    }
    return true;
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }
}
