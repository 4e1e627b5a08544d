// Configuration from the environment; every setting has a default that works
// on a fresh clone.
import type { StoreOptions } from "../db/connect.js";

export interface Config {
  store: StoreOptions;
  host: string;
  port: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port number, got "${env.PORT}"`);
  return {
    store: env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.LIFELINE_DATA_DIR ?? ".lifeline/pgdata" },
    host: env.HOST ?? "127.0.0.1",
    port,
  };
}
