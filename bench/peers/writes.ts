// One system's write, made from a description that crosses a process boundary: the grid's
// paced writer runs in a process of its own (bench/peers/writer.ts), so its sends and acks
// never wait on the event loop that takes in thousands of deliveries, and the probe's
// and warm-up's writes run here from the same description. Write number n is:
// - etcd: a unary KV.Put of the watched key (value "write n"), answering the revision it made;
// - GraphQL (PostGraphile, Lifeline): the system's mutation over HTTP keep-alive (bench/api.ts's
//   postGraphql, one socket), every "{n}" in its variables' strings replaced by n; it answers n;
// - SQL (PostgreSQL itself): its statement by postgres.js on one connection, autocommit, with
//   parameters ("write n", n, the row); it answers n.
import http from "node:http";
import postgres from "postgres";
import { postGraphql } from "../api.js";
import { grpcClient, raw } from "./grpc.js";
import { putRequest, putRevision } from "./protobuf.js";

export type WriteSpec =
  | { kind: "etcd"; target: string; key: string }
  | { kind: "graphql"; system: string; url: string; query: string; variables: Record<string, unknown> }
  | { kind: "sql"; system: string; url: string; statement: string; row: number };

export interface Writer {
  /** Sends write number `n`; resolves, once acknowledged, with the number its system answers (see above). */
  write(n: number, timeoutMs: number): Promise<number>;
  close(): void;
}

export function makeWriter(spec: WriteSpec): Writer {
  if (spec.kind === "etcd") {
    const client = grpcClient(spec.target);
    const key = Buffer.from(spec.key);
    return {
      write: (n, timeoutMs) =>
        new Promise((resolve, reject) =>
          client.makeUnaryRequest(
            "/etcdserverpb.KV/Put",
            raw,
            raw,
            putRequest(key, Buffer.from(`write ${n}`)),
            { deadline: Date.now() + timeoutMs },
            (error, response) => (error ? reject(new Error(`etcd: put: ${error.message}`)) : resolve(putRevision(response!))),
          ),
        ),
      close: () => client.close(),
    };
  }
  if (spec.kind === "sql") {
    const sql = postgres(spec.url, { max: 1, onnotice: () => {} });
    return {
      write: async (n, timeoutMs) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            sql.unsafe(spec.statement, [`write ${n}`, n, spec.row]),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`${spec.system}: write ${n} took over ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
        } finally {
          clearTimeout(timer);
        }
        return n;
      },
      close: () => void sql.end({ timeout: 5 }),
    };
  }
  const url = new URL(spec.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const numbered = (n: number) =>
    Object.fromEntries(Object.entries(spec.variables).map(([k, v]) => [k, typeof v === "string" ? v.replaceAll("{n}", String(n)) : v]));
  return {
    write: async (n, timeoutMs) => {
      const variables = numbered(n);
      try {
        await postGraphql(url, agent, spec.system, spec.query, variables, timeoutMs);
      } catch (error) {
        // A keep-alive socket the server closed as the request went out: sent again once on a new socket, as
        // HTTP clients do (setting the same value twice is the same write). The time counts from the first send.
        if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") throw error;
        console.error(`${spec.system}: write ${n}: connection reset, sent again`);
        await postGraphql(url, agent, spec.system, spec.query, variables, timeoutMs);
      }
      return n;
    },
    close: () => agent.destroy(),
  };
}
