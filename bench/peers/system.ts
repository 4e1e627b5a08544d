// What bench/peers.ts asks of each system it compares (etcd, PostGraphile, Lifeline):
// its server's pid (for its CPU), subscribers that record when each event arrives, keyed
// by the revision the write made, and its write as a description (writes.ts) with the
// revision each numbered write makes.
import type { WriteSpec } from "./writes.js";

export interface Listeners {
  readonly count: number;
  /** arrivals[revision] = performance.now() of each delivery of that revision. */
  readonly arrivals: Map<number, number[]>;
  close(): void;
}

export interface PeerSystem {
  readonly name: string;
  /** The server process whose CPU the grid reports; null where there is none but PostgreSQL's own. */
  readonly pid: number | null;
  /** How the subscribers are carried, for the report. */
  readonly transport: string;
  /** Opens `count` subscribers on the one key/row/model the writes change; resolves once each is open. `next` is the next write's number. */
  subscribe(count: number, timeoutMs: number, next: number): Promise<Listeners>;
  /** Its write of the key/row/model the subscribers watch. */
  readonly writes: WriteSpec;
  /** The same write of a key/row/model nobody watches: the paced writer's warm-up. */
  readonly warmupWrites: WriteSpec;
  /** The revision write number `n` made, which its events carry, from the write's answer. */
  revision(n: number, answer: number): number;
  stop(): Promise<void>;
}

/** A GraphQL peer's one-write mutation, for the mutation comparison: every client sends it with the same code. */
export interface Mutation {
  readonly name: string;
  readonly url: URL;
  /** Gives each of `clients` its own row or model. */
  prepare(clients: number): Promise<void>;
  /** Client `client`'s `i`th request. */
  request(client: number, i: number): { query: string; variables: Record<string, unknown> };
}
