// The graphql-ws connections every agent in a process shares (graphql-ws
// multiplexes), so a thousand agents are not a thousand sockets. Each operation
// carries its own agent's token in its extensions, so each agent acts as itself
// on a shared socket. The connections reconnect by themselves; streams are
// resubscribed and start again from their first event (the full state), which
// is what the agents reconcile from.
//
// Requests (queries, mutations) have a socket of their own, and streams are
// spread over a few: a graphql-ws client keeps two close/error listeners per
// operation in an array and finds each by indexOf when the operation ends, so
// with every agent's streams on the socket its requests use, each request's end
// scanned 80,000 listeners at 10,000 units (2% of the process's CPU there, and
// growing with N²). On their own socket, requests scan only those in flight.
import type { Socket } from "node:net";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { type Client, createClient, type ExecutionResult, type Sink, type SubscribePayload } from "graphql-ws";
import WebSocket from "ws";
import { corkForTurn } from "../net/cork.js";
import { type Gathered, RequestSlots } from "./request-slots.js";
import { PASS_RETRY } from "./serial.js";
import { RetryTimer } from "./uniter/retry.js";

/** A refusal or failure the API answered with; `code` is its `extensions.code`. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The server said the same request may succeed later (`extensions.retryable`: the database out of reach). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * Whether a failure passes by itself, so that the work that met it is worth doing again after a wait: one the server
 * calls retryable, CONTENTION, or one that is not the server's answer at all (a socket that closed under a request).
 * As Juju's dependency engine restarts a worker after any error.
 */
export function passesAgain(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.retryable || error.code === "CONTENTION";
}

/** A request as one agent sends it: the connection's, with that agent's token. */
export type Call = <R, V>(document: TypedDocumentNode<R, V>, variables: V) => Promise<R>;

type Result = { data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] };

/** Each document's text, printed once: agents send the same few operations thousands of times. */
const printed = new WeakMap<object, string>();
function textOf(document: TypedDocumentNode<unknown, unknown>): string {
  const known = printed.get(document);
  if (known !== undefined) return known;
  const text = print(document);
  printed.set(document, text);
  return text;
}

const failure = (result: Result) => {
  const first = result.errors?.[0];
  return first ? new ApiError(String(first.extensions?.code ?? "UNKNOWN"), first.message, first.extensions?.retryable === true) : null;
};

/** How long a socket with nothing in flight stays open: agents that act again within it reuse it. */
const IDLE_CLOSE_MS = 60_000;

/** Sockets the streams are spread over (by agent token), each opened when first used. */
const STREAM_SOCKETS = 4;

/**
 * A WebSocket whose frames sent within one turn leave in one write (corkForTurn): every agent of the process acting on
 * the same event sends its request in that turn, each a system call of its own before.
 */
class CorkingWebSocket extends WebSocket {
  override send(data: unknown, ...rest: unknown[]): void {
    const tcp = (this as unknown as { _socket?: Socket })._socket;
    if (tcp) corkForTurn(tcp);
    (super.send as (...args: unknown[]) => void).call(this, data, ...rest);
  }
}

function connect(url: string): Client {
  return createClient({
    url: url.replace(/^http/, "ws"),
    webSocketImpl: CorkingWebSocket,
    lazy: true,
    // Keep trying through a server restart: agents outlive it.
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    retryWait: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** retries, 5000))),
    keepAlive: 10_000,
    // A lazy client closes its socket as soon as no operation is in flight (graphql-ws's default is 0 ms): an agent's
    // requests, which come one after another, each paid a new connection, its upgrade and its connection_init.
    lazyCloseTimeout: IDLE_CLOSE_MS,
  });
}

/** A token's stream socket: the same one for all of an agent's streams (FNV-1a over the token). */
function socketOf(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % STREAM_SOCKETS;
}

/**
 * Requests a process's agents have on the server at once; the rest wait their turn here. Ten thousand agents acting on
 * one event (their application removed, say) each made a request at once, and the server held every one (its context,
 * its execution, its place in the model's queue of writers) while the model's writers took them 32 a transaction: about
 * 180 MiB more at 10,000 units. A request waiting here is a closure and a promise. Four full groups of writers keep the
 * model's queue fed.
 */
const REQUESTS_IN_FLIGHT = 4 * 32;

export class AgentConnection {
  private readonly requests: Client;
  private readonly streams: Client[];
  private readonly slots = new RequestSlots(REQUESTS_IN_FLIGHT);

  /** `url` is the API's http(s) or ws(s) url. */
  constructor(url: string) {
    this.requests = connect(url);
    this.streams = Array.from({ length: STREAM_SOCKETS }, () => connect(url));
  }

  /** Runs a query or mutation as the agent whose token this is, once one of the process's request slots is free. */
  request<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
    return this.slots.run(() => this.send(document, variables, [token]));
  }

  /**
   * Makes `kind`'s call for `item` as the agent whose token this is, once a slot is free, together with the calls of
   * its kind and `group` (their model) that other agents of the process have waiting beside it (request-slots.ts).
   */
  gather<I, R>(kind: Gathered<I, R>, group: string, item: I, token: string): Promise<R> {
    return this.slots.gather(kind, group, item, token);
  }

  /**
   * Sends a request now, outside the slots (a Gathered call's own sending), standing for the agents whose tokens these
   * are: with several, the server checks each item of its bulk field against its own agent (`authorizations`).
   */
  send<R, V>(document: TypedDocumentNode<R, V>, variables: V, tokens: readonly string[]): Promise<R> {
    const extensions: Record<string, unknown> = { authorization: `Bearer ${tokens[0]}` };
    if (tokens.length > 1) extensions.authorizations = tokens.map((token) => `Bearer ${token}`);
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      this.requests.subscribe<R>(
        {
          query: textOf(document as TypedDocumentNode<unknown, unknown>),
          variables: variables as Record<string, unknown>,
          extensions,
        },
        {
          next: (result) => {
            settled = true;
            const error = failure(result as Result);
            if (error) reject(error);
            else resolve(result.data as R);
          },
          error: (error) => reject(error instanceof Error ? error : new Error(String(error))),
          complete: () => {
            if (!settled) reject(new Error("the operation completed without a result"));
          },
        },
      );
    });
  }

  /**
   * Subscribes as the agent whose token this is. `next` sees every event; a
   * refusal (FORBIDDEN, UNAUTHENTICATED, NOT_FOUND) ends the stream through `failed`.
   * Returns the unsubscribe function.
   */
  subscribe<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string, handlers: StreamHandlers<R>): () => void {
    const stream = new AgentStream(
      this.streams[socketOf(token)]!,
      {
        query: textOf(document as TypedDocumentNode<unknown, unknown>),
        variables: variables as Record<string, unknown>,
        extensions: { authorization: `Bearer ${token}` },
      },
      handlers,
    );
    stream.open();
    return () => stream.close();
  }

  /** Requests as the agent whose token this is. */
  callerFor(token: string): Call {
    return (document, variables) => this.request(document, variables, token);
  }

  async close(): Promise<void> {
    await Promise.all([this.requests, ...this.streams].map((client) => client.dispose()));
  }
}

/** What an agent hears of its stream: each event's data, and the refusal that ends it. */
export interface StreamHandlers<R> {
  next: (data: R) => void;
  failed: (error: Error) => void;
}

/**
 * One agent's stream on its token's socket, and graphql-ws's sink for it. A stream the server ends for a reason that
 * passes (UNAVAILABLE: the database out of reach) is opened again, after 1 s doubling to 30 s, and starts over with
 * the full state, as after a reconnect: the agent reconciles from it. A class, not closures: a process holds two of
 * these a unit for as long as the units live (docs/decisions.md, "Memory").
 */
class AgentStream<R> implements Sink<ExecutionResult<R>> {
  private ended = false;
  private unsubscribe: (() => void) | null = null;
  /** Made on the first failure that passes: most streams never meet one. */
  private retry: RetryTimer | null = null;

  constructor(
    private readonly client: Client,
    private readonly payload: SubscribePayload,
    private readonly handlers: StreamHandlers<R>,
  ) {}

  open(): void {
    this.unsubscribe?.(); // the stream that failed, if it is still open
    this.unsubscribe = this.client.subscribe<R>(this.payload, this);
  }

  close(): void {
    this.ended = true;
    this.retry?.reset();
    this.unsubscribe?.();
  }

  next(result: ExecutionResult<R>): void {
    const error = failure(result as Result);
    if (error) {
      this.streamEnded(error);
      return;
    }
    this.retry?.reset();
    this.handlers.next(result.data as R);
  }

  /** graphql-ws hands a refusal at subscribe time (before the stream's first event) as the list of its errors. */
  error(error: unknown): void {
    this.streamEnded(Array.isArray(error) ? failure({ errors: error })! : error instanceof Error ? error : new Error(String(error)));
  }

  complete(): void {}

  private streamEnded(error: Error): void {
    if (this.ended) return;
    if (!(error instanceof ApiError && error.retryable)) {
      this.handlers.failed(error);
      return;
    }
    this.retry ??= new RetryTimer(PASS_RETRY, () => this.open());
    this.retry.start();
  }
}
