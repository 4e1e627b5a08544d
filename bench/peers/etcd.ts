// etcd 3.4 as bench/peers.ts runs it: Debian's etcd with its defaults, on free loopback
// ports with a data directory of its own (removed at the end), one member.
//
// It is spoken to as its own client library does, over gRPC: @grpc/grpc-js, installed
// into the benchmark's cache directory (bench/peers/install.ts), with the few protobuf
// messages read and written by hand (protobuf.ts). Subscribers are watches on one key,
// carried as etcd's client carries them, many watches on one bidirectional Watch stream:
// as many streams as Lifeline's subscribers get sockets, on one HTTP/2 connection, each
// sent its share of create_requests. Writes are unary KV.Put calls of that key on a
// connection of their own (writes.ts), one at a time; each answers with the revision it
// made, which its watch events carry.
//
// Not the HTTP/JSON gateway (/v3/watch), though it needs no library: the gateway runs in
// etcd's process and relays to its own gRPC server, converting every event of every
// watch to JSON; measured in this harness on the same loaded machine it was etcd's
// bottleneck (1,000 watches at 20 puts/s: put ack p50 116 ms, delivery p99 539 ms;
// 10,000 at 2/s: p99 12 s), which no etcd user would see from a Go or gRPC client.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/support/ports.js";
import { startChild } from "./child.js";
import { type GrpcClient, type GrpcStream, grpcClient, raw } from "./grpc.js";
import { readWatchResponse, watchCreateRequest } from "./protobuf.js";
import type { Listeners, PeerSystem } from "./system.js";

const KEY = "lifeline-bench/event";

class Watches implements Listeners {
  readonly arrivals = new Map<number, number[]>();
  private readonly streams: GrpcStream[] = [];
  private created = 0;

  constructor(
    private readonly client: GrpcClient,
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
        if (++this.created === this.count) {
          clearTimeout(timer);
          resolve();
        }
      };
      for (let opened = 0; opened < this.count; ) {
        const n = Math.min(perStream, this.count - opened);
        opened += n;
        const stream = this.client.makeBidiStreamRequest("/etcdserverpb.Watch/Watch", raw, raw);
        this.streams.push(stream);
        stream.on("error", (error) => {
          if (this.created < this.count) reject(error);
        });
        stream.on("data", (message) => {
          const at = performance.now();
          readWatchResponse(message, onCreated, (revision) => {
            let list = this.arrivals.get(revision);
            if (!list) {
              list = [];
              this.arrivals.set(revision, list);
            }
            list.push(at);
          });
        });
        const create = watchCreateRequest(Buffer.from(KEY));
        for (let i = 0; i < n; i++) stream.write(create);
      }
    });
  }

  close(): void {
    for (const stream of this.streams) stream.cancel();
  }
}

export async function startEtcd(binary: string): Promise<PeerSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), "lifeline-bench-etcd-"));
  const [client, peer] = [await freePort(), await freePort()];
  const clientUrl = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  let child: Awaited<ReturnType<typeof startChild>>;
  try {
    child = await startChild(
      "etcd",
      binary,
      [
        "--name=bench",
        `--data-dir=${dataDir}`,
        `--listen-client-urls=${clientUrl}`,
        `--advertise-client-urls=${clientUrl}`,
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
  const watcher = grpcClient(`127.0.0.1:${client}`);
  return {
    name: "etcd",
    pid: child.pid,
    transport: "gRPC Watch streams, many watches each",
    async subscribe(count, timeoutMs) {
      const watches = new Watches(watcher, count);
      await watches.open(Math.max(1, Math.min(25, count)), timeoutMs);
      return watches;
    },
    // The writer has a connection of its own, as a writer and a watcher in separate processes would.
    writes: { kind: "etcd", target: `127.0.0.1:${client}`, key: KEY },
    warmupWrites: { kind: "etcd", target: `127.0.0.1:${client}`, key: `${KEY}/warm-up` },
    revision: (_n, answer) => answer,
    async stop() {
      watcher.close();
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
