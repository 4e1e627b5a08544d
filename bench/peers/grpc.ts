// The part of @grpc/grpc-js etcd is spoken to with (bench/peers/etcd.ts, writes.ts): loaded
// from the benchmark's cache directory (bench/peers/install.ts), never the repository's
// dependencies, so untyped here but for what is used. Messages go as raw bytes: the few
// protobuf messages are written and read by hand (protobuf.ts).
import { createRequire } from "node:module";
import { join } from "node:path";
import { peersDir } from "./install.js";

export const raw = (buf: Buffer) => buf;

export interface GrpcStream {
  write(message: Buffer): boolean;
  end(): void;
  cancel(): void;
  on(event: "data", listener: (message: Buffer) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
}

export interface GrpcClient {
  makeBidiStreamRequest(method: string, serialize: typeof raw, deserialize: typeof raw): GrpcStream;
  makeUnaryRequest(
    method: string,
    serialize: typeof raw,
    deserialize: typeof raw,
    request: Buffer,
    options: { deadline: number },
    callback: (error: Error | null, response?: Buffer) => void,
  ): void;
  close(): void;
}

/** A client on one HTTP/2 connection to `target` (host:port), without TLS. */
export function grpcClient(target: string): GrpcClient {
  const grpc = createRequire(join(peersDir, "package.json"))("@grpc/grpc-js");
  return new grpc.Client(target, grpc.credentials.createInsecure());
}
