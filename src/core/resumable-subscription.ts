// A change stream followed across dropped connections, the same way wherever a client runs (the command line, the
// status page): subscribe; remember the last revision processed; when the socket drops, subscribe again with it as
// `since`, so nothing is missed or repeated; when the log no longer reaches back that far (RESYNC_REQUIRED), start over
// from a fresh snapshot; stop for good on a refusal that trying again would only repeat.
import type { Client } from "graphql-ws";

/** An error the API answered with: its `extensions.code`, message and other extensions. */
export interface StreamRefusal {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export interface ResumeHandlers<Event> {
  /** Each event, in order. */
  event(event: Event): void;
  /** A snapshot begins (the first subscribe, or after RESYNC_REQUIRED): drop what was held. */
  reset(): void;
  /** The stream answers again (its first event after a subscribe). */
  live(): void;
  /** The connection dropped, or the server failed the stream for a reason that passes: it is tried again. */
  lost(why: string): void;
  /** Refused for good (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND…): the stream has stopped. */
  refused(refusal: StreamRefusal): void;
}

export interface Resuming {
  stop(): void;
}

/** Refusals that end the stream: trying again would be refused again. */
const FINAL = new Set(["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED"]);

/** Waits after a failure: 250 ms doubling to 5 s, as the agents do. */
const backoff = (attempt: number) => Math.min(250 * 2 ** attempt, 5000);

export type GraphQLErrors = readonly { message: string; extensions?: Record<string, unknown> }[];

/** The first of a result's errors, as a refusal: its code (extensions.code), message and other extensions. */
export function refusalOf(errors: GraphQLErrors): StreamRefusal {
  const { code, ...details } = errors[0]?.extensions ?? {};
  return { code: typeof code === "string" ? code : "ERROR", message: errors[0]?.message ?? "the stream failed", details };
}

const isRefusal = (error: unknown): error is StreamRefusal =>
  typeof error === "object" && error !== null && "code" in error && typeof (error as StreamRefusal).code === "string" && "details" in error;

/** Why a subscription failed, for people: a refusal's code and message, an error's message, a socket's close code. */
function describe(error: unknown): string {
  if (isRefusal(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  const close = error as { code?: number; reason?: string; message?: string };
  if (typeof close.code === "number") return `connection closed (${close.code}${close.reason ? ` ${close.reason}` : ""})`;
  return close.message ?? String(error);
}

/**
 * Follows `query` (a subscription taking `$since`) on `client`, which must not retry by itself (`retryAttempts: 0`):
 * graphql-ws's own retry sends the same payload again, with the `since` of the first subscribe. `since` is where to
 * start (null: from a snapshot); after that the stream keeps it. `eventOf` finds the event (and its revision) in a
 * result's data.
 */
export function resumeSubscription<Event extends { revision: string }>(
  client: Client,
  query: string,
  variables: Record<string, unknown>,
  eventOf: (data: unknown) => Event,
  handlers: ResumeHandlers<Event>,
  since: string | null = null,
): Resuming {
  let stopped = false;
  let attempt = 0;
  let answering = false;
  let unsubscribe = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    if (since === null) handlers.reset();
    answering = false;
    unsubscribe = client.subscribe(
      { query, variables: { ...variables, since } },
      {
        next: (result) => {
          if (result.errors?.length) return failed(refusalOf(result.errors as GraphQLErrors));
          attempt = 0;
          if (!answering) {
            answering = true;
            handlers.live();
          }
          const event = eventOf(result.data);
          since = event.revision;
          handlers.event(event);
        },
        // graphql-ws hands a refusal at subscribe time as the list of its errors, a dropped socket as its CloseEvent.
        error: (error) => failed(Array.isArray(error) ? refusalOf(error as GraphQLErrors) : error),
        complete: () => failed(new Error("the server ended the stream")),
      },
    );
  };

  const failed = (error: unknown) => {
    if (stopped) return;
    unsubscribe();
    if (isRefusal(error) && FINAL.has(error.code)) {
      stopped = true;
      handlers.refused(error);
      return;
    }
    if (isRefusal(error) && error.code === "RESYNC_REQUIRED") since = null;
    handlers.lost(describe(error));
    timer = setTimeout(open, backoff(attempt++));
  };

  open();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
