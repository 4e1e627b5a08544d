// Configuration from the environment; every setting has a default that works
// on a fresh clone.

import { dirname, join, resolve } from "node:path";
import { defaultFeedOptions, type FeedOptions } from "../changes/feed.js";
import { defaultRetention, type RetentionOptions } from "../changes/retention.js";
import type { StoreOptions } from "../db/connect.js";
import { driverReads, withoutPassword } from "../db/server.js";
import { defaultHookHistory, defaultSessionLifetimes, type HookHistoryOptions, type SessionLifetimes } from "../model/index.js";
import { DEFAULT_KEEP_ALIVE_MS } from "./app.js";
import { defaultHttpLimits, type HttpLimits } from "./connection-limits.js";
import { DEFAULT_HEAP_GROWTH_MIN_MIB, DEFAULT_HEAP_GROWTH_PERCENT } from "./heap-growth.js";
import type { OriginOptions } from "./origins.js";
import { DEFAULT_AGENT_GRACE_MS, type PresenceOptions } from "./presence.js";
import { defaultRequestLimits, type RequestLimits } from "./request-limits.js";

export interface Config {
  store: StoreOptions;
  host: string;
  port: number;
  feed: FeedOptions;
  retention: RetentionOptions & { intervalMs: number };
  /** How long hook runs outlive their unit, pruned as often as the change log is compacted. */
  hookHistory: HookHistoryOptions & { intervalMs: number };
  limits: RequestLimits;
  /** The HTTP server's timeouts and connection cap. */
  http: HttpLimits;
  /** /metrics on an address of its own without a token (LIFELINE_METRICS_LISTEN); null: on the API's port, for admins. */
  metricsListen: { host: string; port: number } | null;
  /** graphql-ws keep-alive: ping interval, and how long a ping may go unanswered (0: off). */
  keepAliveMs: number;
  /** Agent presence: how long an agent may be connected nowhere before it is lost. */
  presence: PresenceOptions;
  /** Which pages may use the API from a browser. */
  origins: OriginOptions;
  /** How long a login link and a browser's session live. */
  sessions: SessionLifetimes;
  /** How far V8 lets a heap grow past what is live, in percent (heap-growth.ts); 0: V8's own heuristics. */
  heapGrowthPercent: number;
  /** The least the heap may grow past what is live, in MiB (LIFELINE_HEAP_GROWTH_MIN_MIB). */
  heapGrowthMinMiB: number;
  /** The in-process agents (provisioners on the dummy cloud, machine agents). */
  agents: {
    enabled: boolean;
    startAttempts: number;
    retryDelayMs: number;
    cloudPollMs: number;
    /** Where the dummy cloud keeps its state; null keeps it in memory. */
    cloudFile: string | null;
    /** How often a process that does not run the agents tries to take them over, and one that does checks it still may. */
    electionMs: number;
  };
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${text}"`);
  return value;
}

/** A lifetime set in seconds, as milliseconds: at least one second. */
const seconds = (env: NodeJS.ProcessEnv, name: string, fallbackMs: number) => Math.max(1, positive(env, name, fallbackMs / 1000)) * 1000;

/**
 * The dummy cloud's file: beside the PGlite data directory (`.lifeline/cloud.json` by default), so the cloud lives as long
 * as the store it serves; `.lifeline/cloud.json` on PostgreSQL too. An in-memory store gets an in-memory cloud: a cloud
 * outliving its store would only hold strays.
 */
function cloudFile(env: NodeJS.ProcessEnv): string | null {
  if (env.LIFELINE_CLOUD_FILE) return resolve(env.LIFELINE_CLOUD_FILE);
  if (env.DATABASE_URL) return resolve(".lifeline/cloud.json");
  const dataDir = env.LIFELINE_DATA_DIR ?? ".lifeline/pgdata";
  return dataDir.startsWith("memory://") ? null : resolve(join(dirname(resolve(dataDir)), "cloud.json"));
}

/** Each limit from `LIFELINE_<NAME>` (maxDepth: LIFELINE_MAX_DEPTH); the README's table lists them. */
function requestLimits(env: NodeJS.ProcessEnv): RequestLimits {
  const limits = { ...defaultRequestLimits };
  for (const key of Object.keys(limits) as (keyof RequestLimits)[]) {
    const name = `LIFELINE_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    limits[key] = Math.max(1, Math.floor(positive(env, name, limits[key])));
  }
  return limits;
}

/** An http(s) URL. */
function httpUrl(name: string, text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !["http:", "https:"].includes(url.protocol)) throw new Error(`${name} must be an http(s) URL, got "${text}"`);
  return url;
}

/** LIFELINE_ALLOWED_ORIGINS (none by default: the server's own pages only), each as a browser sends it; LIFELINE_PUBLIC_URL. */
function origins(env: NodeJS.ProcessEnv): OriginOptions {
  const allowedOrigins = (env.LIFELINE_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .map((text) => {
      const { origin } = httpUrl("LIFELINE_ALLOWED_ORIGINS", text);
      if (origin !== text.replace(/\/$/, ""))
        throw new Error(`LIFELINE_ALLOWED_ORIGINS takes origins (scheme://host[:port], no path), got "${text}"`);
      return origin;
    });
  const publicUrl = env.LIFELINE_PUBLIC_URL ? httpUrl("LIFELINE_PUBLIC_URL", env.LIFELINE_PUBLIC_URL).href : null;
  return { allowedOrigins, publicUrl };
}

/** LIFELINE_METRICS_LISTEN: host:port (IPv6 in brackets) where /metrics is served without a token. */
function metricsListen(env: NodeJS.ProcessEnv): Config["metricsListen"] {
  const text = env.LIFELINE_METRICS_LISTEN;
  if (!text) return null;
  const found = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(text);
  const port = Number(found?.[3]);
  if (!found || port > 65535) throw new Error(`LIFELINE_METRICS_LISTEN must be host:port (e.g. 127.0.0.1:9464), got "${text}"`);
  return { host: found[1] ?? found[2]!, port };
}

/** DATABASE_URL, checked: one postgres.js cannot read would otherwise end start-up with "TypeError: Invalid URL". */
function databaseUrl(text: string): string {
  if (driverReads(text)) return text;
  throw new Error(
    `DATABASE_URL must be a PostgreSQL connection URL, postgres://user[:password]@host[:port][,host2[:port]]/database, got "${withoutPassword(text)}"`,
  );
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port number, got "${env.PORT}"`);
  return {
    store: env.DATABASE_URL
      ? { databaseUrl: databaseUrl(env.DATABASE_URL), preparedStatements: env.LIFELINE_PREPARED_STATEMENTS !== "0" }
      : { dataDir: env.LIFELINE_DATA_DIR ?? ".lifeline/pgdata" },
    host: env.HOST ?? "127.0.0.1",
    port,
    feed: {
      ...defaultFeedOptions,
      pollIntervalMs: positive(env, "LIFELINE_CHANGES_POLL_MS", defaultFeedOptions.pollIntervalMs),
      bookmarkIntervalMs: positive(env, "LIFELINE_BOOKMARK_INTERVAL_MS", defaultFeedOptions.bookmarkIntervalMs),
      maxSnapshot: positive(env, "LIFELINE_SNAPSHOT_LIMIT", defaultFeedOptions.maxSnapshot),
      bookmarkRate: positive(env, "LIFELINE_BOOKMARK_RATE", defaultFeedOptions.bookmarkRate),
    },
    retention: {
      ...defaultRetention,
      keepRevisions: positive(env, "LIFELINE_CHANGE_RETENTION", defaultRetention.keepRevisions),
      minAgeMs: positive(env, "LIFELINE_CHANGE_RETENTION_MIN_AGE_S", defaultRetention.minAgeMs / 1000) * 1000,
      intervalMs: positive(env, "LIFELINE_COMPACT_INTERVAL_S", 60) * 1000,
    },
    hookHistory: {
      ...defaultHookHistory,
      days: positive(env, "LIFELINE_HOOK_HISTORY_DAYS", defaultHookHistory.days),
      intervalMs: positive(env, "LIFELINE_COMPACT_INTERVAL_S", 60) * 1000,
    },
    limits: requestLimits(env),
    http: {
      headersTimeoutMs: positive(env, "LIFELINE_HEADERS_TIMEOUT_MS", defaultHttpLimits.headersTimeoutMs),
      requestTimeoutMs: positive(env, "LIFELINE_REQUEST_TIMEOUT_MS", defaultHttpLimits.requestTimeoutMs),
      keepAliveTimeoutMs: positive(env, "LIFELINE_KEEP_ALIVE_TIMEOUT_MS", defaultHttpLimits.keepAliveTimeoutMs),
      maxConnections: Math.max(1, Math.floor(positive(env, "LIFELINE_MAX_CONNECTIONS", defaultHttpLimits.maxConnections))),
    },
    metricsListen: metricsListen(env),
    keepAliveMs: positive(env, "LIFELINE_WS_KEEPALIVE_MS", DEFAULT_KEEP_ALIVE_MS),
    presence: { graceMs: Math.max(100, positive(env, "LIFELINE_AGENT_GRACE_MS", DEFAULT_AGENT_GRACE_MS)) },
    origins: origins(env),
    sessions: {
      loginLinkMs: seconds(env, "LIFELINE_LOGIN_LINK_TTL_S", defaultSessionLifetimes.loginLinkMs),
      idleMs: seconds(env, "LIFELINE_SESSION_IDLE_S", defaultSessionLifetimes.idleMs),
      maxMs: seconds(env, "LIFELINE_SESSION_MAX_S", defaultSessionLifetimes.maxMs),
    },
    heapGrowthPercent: Math.round(positive(env, "LIFELINE_HEAP_GROWTH_PERCENT", DEFAULT_HEAP_GROWTH_PERCENT)),
    heapGrowthMinMiB: positive(env, "LIFELINE_HEAP_GROWTH_MIN_MIB", DEFAULT_HEAP_GROWTH_MIN_MIB),
    agents: {
      enabled: env.LIFELINE_AGENTS !== "0",
      startAttempts: Math.max(1, positive(env, "LIFELINE_PROVISIONER_START_ATTEMPTS", 10)),
      retryDelayMs: positive(env, "LIFELINE_PROVISIONER_RETRY_MS", 10_000),
      cloudPollMs: Math.max(50, positive(env, "LIFELINE_PROVISIONER_POLL_MS", 5000)),
      cloudFile: cloudFile(env),
      electionMs: Math.max(100, positive(env, "LIFELINE_AGENTS_ELECTION_MS", 5000)),
    },
  };
}
