// etcd 3.4 as bench/peers.ts runs it: Debian's etcd with its defaults, on free loopback
// ports with a data directory of its own (removed at the end), one member.
//
// Subscribers are etcd watches on one key, over etcd's HTTP/JSON gateway (/v3/watch):
// a watch stream there is one HTTP request whose body is a sequence of WatchRequests,
// so the benchmark opens a few streams (as many as Lifeline's subscribers get sockets)
// and sends each its share of `create_request`s; every watch then gets every event on
// its stream as a JSON line, read here with one regular expression (the event's
// mod_revision), as bench/subscribers.ts reads Lifeline's. The gateway rather than a
// gRPC client (npm's etcd3 on @grpc/grpc-js): no client library to install, and the
// measuring side, which shares the machine's two cores with the server it measures,
// only splits lines, where grpc-js would decode HTTP/2 frames and protobuf messages in
// JavaScript for every event of every watch. The gateway is served by the etcd process
// itself (it relays to its own gRPC server over loopback), so its cost is counted in
// etcd's CPU and latency: etcd's figures here are, if anything, a little pessimistic.
//
// Writes are `put`s of that key over the same gateway on a keep-alive socket, one at a
// time; each answers with the revision it made, which its watch events carry.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChild } from "./child.js";
import { freePort, type Listeners, type PeerSystem } from "./system.js";

const KEY = Buffer.from("lifeline-bench/event").toString("base64");
const EVENT = /"created":true|"mod_revision":"(\d+)"/g;

function post(agent: http.Agent, url: string, body: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode !== 200) reject(new Error(`etcd: HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
        else resolve(text);
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`etcd: no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

class Watches implements Listeners {
  readonly arrivals = new Map<number, number[]>();
  private readonly requests: http.ClientRequest[] = [];
  private created = 0;

  constructor(
    private readonly base: string,
    readonly count: number,
  ) {}

  open(streams: number, timeoutMs: number): Promise<void> {
    const perStream = Math.ceil(this.count / streams);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`etcd: ${this.created} of ${this.count} watches created in ${timeoutMs} ms`)),
        timeoutMs,
      );
      const onCreated = () => {
        if (this.created === this.count) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (let opened = 0; opened < this.count; ) {
        const n = Math.min(perStream, this.count - opened);
        opened += n;
        const req = http.request(`${this.base}/v3/watch`, { method: "POST", headers: { "content-type": "application/json" } });
        this.requests.push(req);
        req.on("error", (error) => {
          if (this.created < this.count) reject(error);
        });
        req.on("response", (res) => {
          let partial = "";
          res.on("data", (chunk: Buffer) => {
            const text = partial + chunk.toString();
            const end = text.lastIndexOf("\n") + 1;
            partial = text.slice(end);
            const at = performance.now();
            for (const match of text.slice(0, end).matchAll(EVENT)) {
              if (match[1] === undefined) {
                this.created++;
                onCreated();
                continue;
              }
              const revision = Number(match[1]);
              let list = this.arrivals.get(revision);
              if (!list) {
                list = [];
                this.arrivals.set(revision, list);
              }
              list.push(at);
            }
          });
        });
        req.end(`${JSON.stringify({ create_request: { key: KEY } })}\n`.repeat(n));
      }
    });
  }

  close(): void {
    for (const req of this.requests) req.destroy();
  }
}

export async function startEtcd(binary: string): Promise<PeerSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), "lifeline-bench-etcd-"));
  const [client, peer] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  let child: Awaited<ReturnType<typeof startChild>>;
  try {
    child = await startChild(
      "etcd",
      binary,
      [
        "--name=bench",
        `--data-dir=${dataDir}`,
        `--listen-client-urls=${base}`,
        `--advertise-client-urls=${base}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=bench=${peerUrl}`,
      ],
      {},
      /ready to serve client requests/,
    );
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let sequence = 0;
  return {
    name: "etcd",
    pid: child.pid,
    transport: "HTTP/JSON gateway watch streams, many watches each",
    async subscribe(count, timeoutMs) {
      const watches = new Watches(base, count);
      await watches.open(Math.max(1, Math.min(25, count)), timeoutMs);
      return watches;
    },
    async write(timeoutMs) {
      const value = Buffer.from(`write ${++sequence}`).toString("base64");
      const answer = await post(agent, `${base}/v3/kv/put`, JSON.stringify({ key: KEY, value }), timeoutMs);
      return Number(/"revision":"(\d+)"/.exec(answer)![1]);
    },
    async stop() {
      agent.destroy();
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
