// The HTTP server: graphql-yoga on /graphql (queries, mutations, GraphiQL from
// bundled assets, SSE) and graphql-ws on the same path for WebSocket clients,
// both running through yoga's one envelop pipeline.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { type ExecutionArgs, type execute, GraphQLError, getOperationAST, type subscribe } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { createYoga, type YogaLogger } from "graphql-yoga";
import { WebSocketServer } from "ws";
import { ChangeFeed, defaultFeedOptions, type FeedOptions } from "../changes/feed.js";
import { type RetentionOptions, startCompactor } from "../changes/retention.js";
import { loggerFor } from "../core/log.js";
import type { Store } from "../db/connect.js";
import type { CloudControl, Context } from "../graphql/context.js";
import { MASKED_MESSAGE, maskError } from "../graphql/errors.js";
import { schema } from "../graphql/schema.js";
import {
  authenticate,
  defaultSessionLifetimes,
  type HookHistoryOptions,
  type SessionLifetimes,
  startHookHistoryPruner,
  unavailable,
} from "../model/index.js";
import { agentTokensOf, tokenOf, useAuthentication } from "./authentication.js";
import { answerClientError } from "./client-errors.js";
import { coalesceWrites } from "./coalesce-writes.js";
import { ConnectionCap, defaultHttpLimits, type HttpLimits, httpServerOptions, tooManyConnections } from "./connection-limits.js";
import { answerHealthz, answerReadyz, Readiness } from "./health.js";
import { refusalBody, useCodedMediaTypeRefusal, useRefusalStatus } from "./http-status.js";
import { LOGIN_PATH, logIn } from "./login.js";
import { answerMetrics, METRICS_PATH, Metrics, serveMetrics } from "./metrics.js";
import { useOperationLog } from "./operation-log.js";
import { operationTurns } from "./operation-turns.js";
import { defaultOriginOptions, foreignPageRefusal, type HeaderOf, headersOf, type OriginOptions, OriginPolicy } from "./origins.js";
import { plainPosts } from "./plain-post.js";
import { AgentPresence, type PresenceOptions, usePresence } from "./presence.js";
import { useQuerySnapshot } from "./query-snapshot.js";
import { defaultRequestLimits, type RequestLimits, useRequestLimits } from "./request-limits.js";
import { type MaskError, useSharedSubscriptionExecution } from "./shared-execution.js";
import { keepSharedResult, replaceSharedPayload, sendSharedFrames } from "./shared-frames.js";
import { answerUi, servesUi, UI_PATH } from "./ui.js";

export const GRAPHQL_PATH = "/graphql";
export { LOGIN_PATH };

/** What onSubscribe hands graphql-ws as the root value: yoga's enveloped execute and subscribe (yoga's graphql-ws example). */
interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => ReturnType<typeof execute>;
  subscribe: (args: ExecutionArgs) => ReturnType<typeof subscribe>;
}

/** How browsers may use the API: the pages they may come from, and how long their sessions last by `clock` (tests move it). */
export interface BrowserAccess {
  origins: OriginPolicy;
  sessions: SessionLifetimes;
  clock: () => number;
}

const browserAccess = (options: { origins?: OriginOptions; sessions?: SessionLifetimes; clock?: () => number }): BrowserAccess => ({
  origins: new OriginPolicy(options.origins ?? defaultOriginOptions),
  sessions: options.sessions ?? defaultSessionLifetimes,
  clock: options.clock ?? Date.now,
});

/** The cloud the admin's API reaches: fixed, or asked for per request (it comes and goes with the process's agents). */
export type CloudSource = CloudControl | (() => CloudControl | undefined);

/**
 * The API; subscriptions need the process's change feed (without one they refuse). `bodiesChecked`: the HTTP server
 * in front has refused every body over the limit by its Content-Length, and every body without one (startServer);
 * yoga's own count of the bytes, a stream transform on every request's body, is then only cost. `presence`: the
 * process's agent presence, told of every agent's operations (its first one here waits until it is recorded).
 */
export function createYogaApp(
  store: Store,
  feed?: ChangeFeed,
  cloud?: CloudSource,
  limits: RequestLimits = defaultRequestLimits,
  bodiesChecked = false,
  presence?: AgentPresence,
  { origins, sessions, clock }: BrowserAccess = browserAccess({}),
  metrics?: Metrics,
) {
  const logger = requestLogger();
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    maxRequestBodySize: bodiesChecked ? false : limits.maxRequestBytes,
    cors: origins.cors,
    // A fresh object per request: Pothos keeps the request's dataloaders on it.
    context: async (initial) => {
      const { request, req, connectionParams, params } = initial as typeof initial & {
        req?: IncomingMessage;
        connectionParams?: Readonly<Record<string, unknown>>;
      };
      // Over graphql-ws, `request` is absent and `req` is the socket's upgrade request.
      const credentials = tokenOf({
        headers: req ? undefined : request?.headers,
        upgradeHeaders: req?.headers,
        connectionParams,
        extensions: params?.extensions,
      });
      if (credentials?.cookie) refuseForeignPage(origins, headersOf(req ? req.headers : request.headers));
      const provider = typeof cloud === "function" ? cloud() : cloud;
      const now = clock();
      const actor = credentials ? await authenticate(store.db, credentials.token, sessions, now) : null;
      await presence?.seen(actor);
      const tokens = agentTokensOf(params?.extensions);
      if (!tokens) return { db: store.db, feed, provider, actor };
      // Looked up together (authenticate reads a turn's tokens in one statement); each agent is seen, as by a call of its own.
      const agents = await Promise.all(tokens.map((token) => (token ? authenticate(store.db, token, sessions, now) : null)));
      await Promise.all(agents.map((agent) => presence?.seen(agent)));
      return { db: store.db, feed, provider, actor, agents };
    },
    // The refusal status first, so it sees every refusal; then the limits: a request they refuse costs nothing else.
    // A query's snapshot last: only what runs takes one.
    // The shared subscription execution ends a subscription's pipeline, so it goes last (shared-execution.ts).
    plugins: [
      useRefusalStatus(),
      useCodedMediaTypeRefusal(),
      ...(metrics ? [metrics.plugin()] : []),
      useOperationLog(),
      useRequestLimits(limits),
      useAuthentication(),
      usePresence(presence),
      useQuerySnapshot(store.db),
      useSharedSubscriptionExecution(maskingAs(logger)),
    ],
    maskedErrors: { maskError, errorMessage: MASKED_MESSAGE },
    // GraphiQL's assets come from the installed package, never a CDN: it works air-gapped. They are loaded when the
    // page is first asked for: about 30 MiB of the heap that a server nobody opens GraphiQL on never needs.
    renderGraphiQL: async (options) => (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    graphiql: { title: "Lifeline", defaultQuery: defaultGraphiQLQuery },
    logging: logger,
  });
}

/** A request the browser's session cookie authenticates, from another page than the server's own or an allowed one, runs nothing. */
function refuseForeignPage(origins: OriginPolicy, header: HeaderOf): void {
  const page = origins.foreignPage(header);
  if (page) throw new GraphQLError(foreignPageRefusal(page), { extensions: { code: "FORBIDDEN", http: { status: 403 } } });
}

/** What yoga's masked errors do with an error (the message, the cause logged), for the errors the shared execution masks. */
const maskingAs =
  (logger: YogaLogger): MaskError =>
  (error) => {
    const masked = maskError(error, MASKED_MESSAGE);
    if (masked !== error) logger.error(error);
    return masked;
  };

/**
 * Yoga's logger, as the process's (component `api`), without the errors of an outage: each request refused
 * UNAVAILABLE would log its cause, and the operator hears of the outage once every few seconds instead
 * (src/graphql/errors.ts).
 */
function requestLogger(): YogaLogger {
  const log = loggerFor("api");
  const entry = (args: unknown[]): [Record<string, unknown>, string] => {
    const err = args.find((a) => a instanceof Error);
    const words = args
      .filter((a) => !(a instanceof Error))
      .map((a) => (typeof a === "string" ? a : inspect(a, { depth: 3, breakLength: Infinity })));
    return [err ? { err } : {}, words.join(" ") || (err as Error | undefined)?.message || ""];
  };
  return {
    debug: (...args: unknown[]) => log.debug(...entry(args)),
    info: (...args: unknown[]) => log.info(...entry(args)),
    warn: (...args: unknown[]) => log.warn(...entry(args)),
    error: (...args: unknown[]) => void (args.some((arg) => unavailable(arg)) || log.error(...entry(args))),
  };
}

const defaultGraphiQLQuery = `# Welcome to Lifeline. Try:
query Status {
  model(name: "default") {
    name
    revision
    machines { edges { node { id life series jobs status { current } } } }
    applications { edges { node { name life series unitCount } } }
  }
}
`;

/** A refusal before execution, with the code yoga gives the same refusal over HTTP. */
function withCode(error: unknown, code: string): GraphQLError {
  if (error instanceof GraphQLError)
    return error.extensions.code
      ? error
      : new GraphQLError(error.message, {
          nodes: error.nodes,
          source: error.source,
          positions: error.positions,
          extensions: { ...error.extensions, code },
        });
  // Not graphql-js's own refusal (a stack overflow on a deeply nested query, say): say what failed, not how.
  return new GraphQLError("the query could not be parsed", { extensions: { code } });
}

export interface RunningServer {
  url: string;
  server: Server;
  feed: ChangeFeed;
  /** The process's agent presence, when it keeps one. */
  presence?: AgentPresence;
  /** Where Prometheus scrapes: the API's port (behind an admin token) or the address of metricsListen. */
  metricsUrl: string;
  close(): Promise<void>;
}

export interface ServerOptions {
  feed?: Partial<FeedOptions>;
  /** Compacts the change log on a timer; off unless given. */
  retention?: RetentionOptions & { intervalMs: number };
  /** Prunes hook history past its age on a timer; off unless given. */
  hookHistory?: HookHistoryOptions & { intervalMs: number };
  /** The cloud the process's agents use, exposed to admins for fault injection. */
  provider?: CloudSource;
  limits?: RequestLimits;
  /**
   * graphql-ws pings each socket this often and drops one that has not answered by the next ping (0: never). A
   * client that stops reading altogether cannot answer, and is dropped after one to two intervals; one that reads
   * slowly is not. Either way nothing is lost: it resumes with `since`.
   */
  keepAliveMs?: number;
  /** Keeps agent presence (src/server/presence.ts): `npm start` always does; off unless given. */
  presence?: PresenceOptions;
  /** Which pages may use the API from a browser (src/server/origins.ts): the server's own only, unless given. */
  origins?: OriginOptions;
  /** How long login links and browsers' sessions live (src/model/sessions.ts). */
  sessions?: SessionLifetimes;
  /** The clock credentials' lifetimes are timed by; tests move it. */
  clock?: () => number;
  /** The HTTP server's timeouts and connection cap (src/server/connection-limits.ts). */
  http?: HttpLimits;
  /**
   * Where /metrics is served: on the API's port behind an admin token (the default), or on an address of its own
   * without one (an operator's private network, as node_exporter is).
   */
  metricsListen?: { host: string; port: number };
  /** Plain POSTs answered without yoga's WHATWG layer (src/server/plain-post.ts); on unless false (tests compare the two). */
  plainPosts?: boolean;
}

/** graphql-ws operations begun in one turn of the event loop: a few milliseconds of work, then the other clients' turn. */
const OPERATIONS_PER_TURN = 16;

/** graphql-ws's own default. */
export const DEFAULT_KEEP_ALIVE_MS = 12_000;

/**
 * Refuses a body larger than the limit from its Content-Length, before yoga reads it. A POST without one (a chunked
 * body) is refused with 411, as nginx does: its size could only be learnt by reading it.
 */
function refuseOversizeBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): boolean {
  if (req.method !== "POST") return false;
  const length = req.headers["content-length"];
  const status = length === undefined ? 411 : Number(length) > maxBytes ? 413 : 0;
  if (!status) return false;
  const message =
    status === 411
      ? "send a Content-Length header with the request body"
      : `the request body is ${length} bytes; at most ${maxBytes} are accepted`;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", connection: "close" });
  res.end(refusalBody("REQUEST_TOO_LARGE", message, { limit: "requestBytes", max: maxBytes }));
  return true;
}

/** Serves the API; the change feed starts before the port opens and stops after it closes. */
export async function startServer(store: Store, host: string, port: number, options: ServerOptions = {}): Promise<RunningServer> {
  const feed = new ChangeFeed(store, { ...defaultFeedOptions, ...options.feed });
  await feed.start();
  const compactor = options.retention ? startCompactor(store.db, options.retention, options.retention.intervalMs) : null;
  const pruner = options.hookHistory ? startHookHistoryPruner(store.db, options.hookHistory, options.hookHistory.intervalMs) : null;
  const limits = options.limits ?? defaultRequestLimits;
  const presence = options.presence ? new AgentPresence(store.db, options.presence) : undefined;
  await presence?.start();
  const access = browserAccess(options);
  const { origins } = access;
  const metrics = new Metrics({ store, feed, presence, sockets: () => wss.clients.size });
  const readiness = new Readiness(store, feed);
  const yoga = createYogaApp(store, feed, options.provider, limits, true, presence, access, metrics);
  const plain = options.plainPosts === false ? () => false : plainPosts(yoga);
  const login = () => ({ sessions: access.sessions, secure: origins.servedOverHttps, now: access.clock() });
  // The status page's browser: the session cookie (or a bearer token) of a live session.
  const loggedIn = async (req: IncomingMessage) => {
    const credentials = tokenOf({ upgradeHeaders: req.headers });
    return !!credentials && !!(await authenticate(store.db, credentials.token, access.sessions, access.clock()));
  };
  const http = options.http ?? defaultHttpLimits;
  const refusal = tooManyConnections(http.maxConnections);
  const server = createServer(httpServerOptions(http), (req, res) => {
    const path = req.url?.split("?")[0];
    if (cap.refuses(req.socket)) res.writeHead(refusal.status, refusal.headers).end(refusal.body);
    else if (req.method === "GET" && path === LOGIN_PATH) void logIn(store.db, UI_PATH, req, res, login());
    else if (req.method === "GET" && servesUi(path)) void answerUi(path!, req, res, loggedIn);
    // /health is what yoga answered before: kept for probes set up then.
    else if (req.method === "GET" && (path === "/healthz" || path === "/health")) answerHealthz(res);
    else if (req.method === "GET" && path === "/readyz") void answerReadyz(readiness, res);
    else if (req.method === "GET" && path === METRICS_PATH && !options.metricsListen)
      void answerMetrics(metrics, req, res, (token) => authenticate(store.db, token, access.sessions, access.clock()));
    else if (!refuseOversizeBody(req, res, limits.maxRequestBytes) && !(path === GRAPHQL_PATH && plain(req, res))) void yoga(req, res);
  });
  server.on("clientError", answerClientError);
  const cap = new ConnectionCap(server, http.maxConnections);
  // A larger message closes the socket with 1009 (Message Too Big): ws stops reading it there.
  const wss = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload: limits.maxRequestBytes,
    verifyClient: ({ req }, accept) => {
      if (cap.refuses(req.socket)) return accept(false, refusal.status, refusal.body, refusal.headers);
      const page = origins.foreignPage(headersOf(req.headers));
      if (!page) accept(true);
      else accept(false, 403, refusalBody("FORBIDDEN", foreignPageRefusal(page)), { "content-type": "application/json; charset=utf-8" });
    },
  });
  // Before useServer, so every socket is wrapped before graphql-ws sends on it.
  coalesceWrites(wss);
  sendSharedFrames(wss);
  // A burst of operations on the sockets (a thousand subscriptions in one read) begins a few a turn.
  const turn = operationTurns(OPERATIONS_PER_TURN);
  const ws = useServer(
    {
      // A socket closed on an unexpected error says why, as it did before `npm start` ran as production (production-mode.ts).
      isProd: false,
      execute: (args: ExecutionArgs) => (args.rootValue as EnvelopedRoot).execute(args),
      onNext: keepSharedResult,
      jsonMessageReplacer: replaceSharedPayload,
      subscribe: (args: ExecutionArgs) => (args.rootValue as EnvelopedRoot).subscribe(args),
      onSubscribe: async (ctx, id, params) => {
        const wait = turn();
        if (wait) await wait;
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          // With the socket, where a live stream's frames go (live-frames.ts).
          subscriptionId: id,
          params,
        });
        // Refusals go back for this subscription alone: a throw here would close the socket, and
        // with it every other subscription multiplexed on it (a process's agents share one).
        let document: ReturnType<typeof parse>;
        try {
          document = parse(params.query);
        } catch (error) {
          return [withCode(error, "GRAPHQL_PARSE_FAILED")];
        }
        const errors = validate(schema, document);
        if (errors.length) return errors.map((e: unknown) => withCode(e, "GRAPHQL_VALIDATION_FAILED"));
        // graphql-ws's own answer ("Unable to identify operation") has no code: yoga's over HTTP, with its code.
        if (!getOperationAST(document, params.operationName))
          return [
            new GraphQLError("Could not determine what operation to execute.", { extensions: { code: "OPERATION_RESOLUTION_FAILURE" } }),
          ];
        let contextValue: Awaited<ReturnType<typeof contextFactory>>;
        try {
          contextValue = await contextFactory();
        } catch (error) {
          // The token is read from the database: out of reach, this subscription alone is refused UNAVAILABLE.
          const outage = unavailable(error);
          if (!outage) throw error;
          return [new GraphQLError(outage.message, { extensions: outage.extensions })];
        }
        // Parsed and checked, the document's text is needed no more; the message holding it lives as long as the
        // stream does (graphql-ws keeps it for each result), a kilobyte a stream for hours (docs/decisions.md, Memory).
        (params as { query: string }).query = "";
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
      },
    },
    wss,
    options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
  );
  let metricsServer: Server | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    if (options.metricsListen) metricsServer = await serveMetrics(metrics, options.metricsListen);
  } catch (error) {
    server.close();
    metrics.stop();
    await presence?.stop();
    await compactor?.stop();
    await pruner?.stop();
    await feed.stop();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const urlOf = (at: AddressInfo, path: string) => `http://${at.family === "IPv6" ? `[${at.address}]` : at.address}:${at.port}${path}`;
  return {
    url: urlOf(address, GRAPHQL_PATH),
    metricsUrl: urlOf((metricsServer?.address() as AddressInfo | undefined) ?? address, METRICS_PATH),
    server,
    feed,
    ...(presence ? { presence } : {}),
    async close() {
      // Presence stops first: the sockets closing are not its agents leaving (they come back to the next process).
      await presence?.stop();
      // Then the sockets: clients see the connection end (and resume elsewhere) rather than a completed stream.
      await ws.dispose();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
      metrics.stop();
      await compactor?.stop();
      await pruner?.stop();
      await feed.stop();
    },
  };
}
