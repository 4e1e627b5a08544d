// The refusals the model can give. Each code is stable: clients match on it
// (GraphQL carries it as `extensions.code`), people read the message.

export const ErrorCodes = {
  NOT_FOUND: "No entity of that kind has that name or id.",
  INVALID_ID: "A name or id is malformed (for example a unit name without /N).",
  INVALID_NAME: "A new entity's name does not follow Juju's naming rules.",
  INVALID_ARGUMENT: "An argument is out of range or contradicts another.",
  INVALID_CONSTRAINTS: "Constraints do not parse or do not validate (Juju syntax: mem=2G cores=4 ...).",
  INVALID_CHARM_METADATA: "Charm metadata is not valid metadata.yaml.",
  INVALID_CHARM_CONFIG:
    "Charm config is not valid config.yaml (options with a type of string, int, float or boolean, and a default of that type).",
  INVALID_PLACEMENT: "A placement directive does not parse, or names a machine that cannot take the unit.",
  ALREADY_EXISTS: "An entity with that name or key exists (possibly Dying, until it is removed).",
  NOT_ALIVE: "The target is Dying or Dead: nothing may be added to it (and a Dead unit runs no hook, nor can it be resolved).",
  UNSUPPORTED_SERIES: "The charm does not support the requested series.",
  SERIES_MISMATCH: "Series differ where the seeds require them to match.",
  SUBORDINATE_NOT_ALLOWED: "The operation does not apply to subordinate applications or units.",
  NO_MATCHING_RELATION: "No endpoint pair of the two applications can be related.",
  AMBIGUOUS_RELATION: "Several endpoint pairs could be related: name the endpoints.",
  INVALID_RELATION: "The named endpoints cannot form a relation.",
  PEER_RELATION: "A peer relation is removed only with its application.",
  CANNOT_ENTER_SCOPE_YET: "A principal's previous subordinate of that application is still Dying or Dead: enter once it is removed.",
  CONTENTION: "The operation kept conflicting with concurrent changes; retry it.",
  UNAVAILABLE:
    'The database is out of reach (a connection lost or refused, a restart, a failover in progress): nothing changed, retry shortly (`extensions.retryable`). A write whose connection was lost while it committed says `committed: "unknown"`: read before retrying it.',
  MACHINE_MANAGES_MODEL: "A machine with JobManageModel can never be removed.",
  HAS_UNITS: "A machine with principal units assigned cannot change life (unless forced).",
  HAS_CONTAINERS: "A machine with containers cannot change life (remove-machine unless forced).",
  IN_SCOPE: "A unit cannot become Dead while it is in a relation's scope.",
  HAS_SUBORDINATES: "A unit cannot become Dead while subordinates of it exist.",
  NOT_DEAD: "Only a Dead entity can be removed this way.",
  ALREADY_PROVISIONED: "The machine already has an instance: its instance id is recorded once.",
  NOT_IN_ERROR:
    "`resolved` applies only to a machine whose provisioning failed (status error), or a unit whose agent is in error (a hook failed).",
  ALREADY_RESOLVED:
    "The unit's agent has a resolution pending (resolveUnit, `extensions.resolved` says which): a second one waits until its agent has acted on the first.",
  RESOLUTION_MISMATCH:
    "beginHook's `resolved` is not the unit's pending resolution (`extensions.resolved`, null for none): a run of a failed hook names the resolution pending, if any, which it takes, so a resolution allows one run. Nothing was begun; the agent waits for its stream to show where things stand.",
  UNIT_IN_ERROR: "The unit's agent is in error: its failed hook comes first, until resolveUnit (or an automatic retry) gets it past.",
  NOT_IN_SCOPE: "Only a unit in a relation's scope writes its settings in that relation.",
  HOOK_RUN_ENDED:
    "The hook run has ended: committed with another result, or interrupted because its agent began another run. A commit repeated with the same result is accepted and changes nothing.",
  UNAUTHENTICATED:
    "No credentials, or credentials that do not work (unknown, revoked, or an agent whose entity is Dead): send a bearer token.",
  FORBIDDEN:
    "The credentials are valid but may not do this: a read-only token writing, a token reading a model it does not reach, an agent reading or acting outside its responsibility, or a browser request from another page.",
  // Request limits (src/server/request-limits.ts): refused before anything of the request runs.
  QUERY_TOO_COMPLEX:
    "The operation exceeds a limit on its shape (depth, breadth, cost, aliases, root fields, directives or tokens): `extensions.limit` says which, `max` its value.",
  REQUEST_TOO_LARGE:
    "The request body, its header section, a WebSocket message or the GraphQL document is larger than the server accepts (`extensions.limit` says which).",
  REQUEST_TIMEOUT: "The request did not arrive within the server's time for it: the connection is closed.",
  TOO_MANY_CONNECTIONS:
    "The server holds as many connections as it accepts (HTTP status 503, `extensions.max`): retry shortly, or share a connection (keep-alive, one WebSocket a process).",
  // Change streams (src/changes): the one code they add.
  RESYNC_REQUIRED:
    "The change log no longer holds the revision a stream would resume from: subscribe again without `since` for a fresh snapshot.",
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** How much of an input a message quotes: enough to recognise it, never enough to echo a megabyte back. */
const QUOTE_LIMIT = 64;

/** `text` in double quotes, cut to a short prefix (with its full length said) when it is long. */
export function shortQuote(text: string): string {
  return text.length <= QUOTE_LIMIT ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, QUOTE_LIMIT))}… (${text.length} characters)`;
}

/**
 * Where an input can be long, its message quotes it with shortQuote; this is the net under every other call site,
 * so no refusal sends a hostile input back whole, in its message or its details.
 */
const MESSAGE_LIMIT = 1024;

function bounded(message: string): string {
  return message.length > MESSAGE_LIMIT ? `${message.slice(0, MESSAGE_LIMIT)}…` : message;
}

/** Long enough for any valid name or relation key (two endpoints of 127 characters), so only bad input is cut. */
const DETAIL_LIMIT = 256;

function boundedDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details))
    out[key] = typeof value === "string" && value.length > DETAIL_LIMIT ? `${value.slice(0, DETAIL_LIMIT)}…` : value;
  return out;
}

export class LifelineError extends Error {
  /** graphql-js copies an original error's `extensions` onto the GraphQL error it wraps it in. */
  readonly extensions: { code: ErrorCode } & Record<string, unknown>;

  readonly details: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(bounded(message));
    this.name = "LifelineError";
    this.details = boundedDetails(details);
    this.extensions = { code, ...this.details };
  }
}

export const notFound = (kind: string, id: string, where?: string) =>
  new LifelineError("NOT_FOUND", `${kind} ${shortQuote(id)} not found${where ? ` in model ${shortQuote(where)}` : ""}`, { kind, id });

export const notAlive = (kind: string, id: string, life: string) =>
  new LifelineError("NOT_ALIVE", `${kind} ${shortQuote(id)} is ${life}: nothing can be added to it`, { kind, id, life });

/**
 * A call naming more than its operation takes in one transaction: INVALID_ARGUMENT, with `limit` naming what was
 * counted and `max` the bound, as the request's own element caps say it (src/server/input-elements.ts).
 */
export function tooManyACall(what: string, max: number, actual: number, hint = "send the rest in further calls"): LifelineError {
  return new LifelineError("INVALID_ARGUMENT", `at most ${max} ${what} a call, got ${actual}: ${hint}`, {
    limit: `${what.replace(/ (\w)/g, (_, c: string) => c.toUpperCase())}PerCall`,
    max,
    actual,
  });
}
