// Executes a subscription's selection set once per event for each distinct
// operation and variables, however many subscribers share them.
//
// graphql-js executes the selection set once per subscriber per event; on two cores
// that caps a server near 20,000 deliveries a second. The change feed hands the same
// event object to every stream of a model, so the result can be cached on the event
// itself (a WeakMap, freed with the event) under a key of the operation and its
// variables. This is sound because change events resolve from their own data only,
// never from the subscriber's context (no loaders, no per-user fields). An event made
// for one stream (a snapshot's STATE events, a resumed stream's catch-up) is simply
// executed for that stream alone.
//
// The execution itself is graphql-jit's: a selection compiled once per document into
// a function that walks the event, where graphql-js interprets the selection for every
// event (its argument objects, resolve infos and field maps were a quarter of the API
// thread's allocation settling 1,000 units). graphql-jit calls a type's isTypeOf with
// the value alone, without the context scope-auth's type checks need, so a selection
// that reaches such a type keeps graphql-js (change events reach none).

import { RequestCache } from "@pothos/plugin-scope-auth";
import {
  type ASTNode,
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";
import { ChangeStream } from "../changes/stream.js";
import { liveDestinationOf, liveFrames } from "./live-frames.js";
import { markShared } from "./shared-results.js";

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;
/** Per event: per operation key, its result, or the promise of one while an execution is asynchronous. */
const results = new WeakMap<object, Map<string, ExecutionResult | Promise<ExecutionResult>>>();

/** yoga's parser cache hands the same DocumentNode to every request with the same text, so identity is a cheap key. */
function operationKey(args: ExecutionArgs): string {
  let id = documentIds.get(args.document);
  if (id === undefined) {
    id = nextDocumentId++;
    documentIds.set(args.document, id);
  }
  return `${id}\u0000${args.operationName ?? ""}\u0000${JSON.stringify(args.variableValues ?? {})}`;
}

/** Per document, by operation name: its compiled execution, or null where graphql-js executes it. */
const compiledOperations = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

/** The operation's compiled execution, made at its first event (null: graphql-js executes it). */
export function compiledExecution(args: ExecutionArgs): CompiledQuery | null {
  // Resolvers given with the call (rather than the schema's) are graphql-js's to run.
  if (args.fieldResolver || args.typeResolver) return null;
  let byName = compiledOperations.get(args.document);
  if (!byName) {
    byName = new Map();
    compiledOperations.set(args.document, byName);
  }
  const name = args.operationName ?? "";
  let found = byName.get(name);
  if (found === undefined) {
    const operation = getOperationAST(args.document, args.operationName);
    const compiled =
      operation && !reachesTypeCheck(args.schema, args.document, operation)
        ? compileQuery(args.schema, args.document, args.operationName ?? undefined)
        : null;
    found = compiled && isCompiledQuery(compiled) ? compiled : null;
    byName.set(name, found);
  }
  return found;
}

/** Whether the operation's selection (its fragments' included) reaches an object type with an isTypeOf. */
function reachesTypeCheck(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const typeInfo = new TypeInfo(schema);
  const pending: ASTNode[] = [operation];
  const seen = new Set<string>();
  let reaches = false;
  const visitor = visitWithTypeInfo(typeInfo, {
    Field() {
      const type = getNamedType(typeInfo.getType());
      const possible = isAbstractType(type) ? schema.getPossibleTypes(type) : isObjectType(type) ? [type] : [];
      if (possible.some((t) => t.isTypeOf)) reaches = true;
    },
    FragmentSpread(spread) {
      const fragment = fragments.get(spread.name.value);
      if (fragment && !seen.has(fragment.name.value)) {
        seen.add(fragment.name.value);
        pending.push(fragment);
      }
    },
  });
  for (let node = pending.pop(); node && !reaches; node = pending.pop()) visit(node, visitor);
  return reaches;
}

/**
 * Executes the selection for one event; synchronously when every resolver is (change events' are plain data). The
 * scope checks it makes (each entity's `reached`) start afresh and are forgotten once it is done: scope-auth keeps its
 * decisions for its context's life, a stream's, keyed by each check's argument, an object made anew for every event, so
 * a stream kept one more entry for every event it was sent, and each a decision no later event should reuse.
 */
function run(payload: unknown, args: ExecutionArgs, mask: MaskError): ExecutionResult | Promise<ExecutionResult> {
  const compiled = compiledExecution(args);
  const result = (compiled ? compiled.query(payload, args.contextValue, args.variableValues) : execute({ ...args, rootValue: payload })) as
    | ExecutionResult
    | Promise<ExecutionResult>;
  if (!(result instanceof Promise)) {
    forgetScopeChecks(args.contextValue);
    return masked(result, mask);
  }
  return result.then((r) => {
    forgetScopeChecks(args.contextValue);
    return masked(r, mask);
  });
}

/** Drops what scope-auth remembers for a stream's context; made again at its next check. */
function forgetScopeChecks(context: unknown): void {
  if (typeof context === "object" && context !== null) RequestCache.clearForContext(context);
}

/** The shared result of an event for an operation key: executed by the first subscriber to ask, remembered on the event. */
function sharedResult(payload: object, key: string, args: ExecutionArgs, mask: MaskError): ExecutionResult | Promise<ExecutionResult> {
  let byOperation = results.get(payload);
  if (!byOperation) {
    byOperation = new Map();
    results.set(payload, byOperation);
  }
  let result = byOperation.get(key);
  if (result === undefined) {
    const ran = run(payload, args, mask);
    result = ran instanceof Promise ? ran.then(markShared) : markShared(ran);
    byOperation.set(key, result);
    if (result instanceof Promise) void result.then((done) => byOperation.set(key, done));
  }
  return result;
}

// Called once per delivery, so it allocates nothing on the shared path.
async function executeShared(payload: unknown, key: string, args: ExecutionArgs, mask: MaskError): Promise<ExecutionResult> {
  if (typeof payload !== "object" || payload === null) return run(payload, args, mask);
  return sharedResult(payload, key, args, mask);
}

/** The event's shared result if it can be had synchronously (its execution is), else null: the caller takes the slow path. */
export function sharedResultNow(payload: object, key: string, args: ExecutionArgs, mask: MaskError): ExecutionResult | null {
  const result = sharedResult(payload, key, args, mask);
  return result instanceof Promise ? null : result;
}

/** Masks the errors a client is sent (src/graphql/errors.ts): what yoga's masked-errors plugin would do. */
export type MaskError = (error: unknown) => Error;

const isAbort = (error: unknown) => error instanceof Error && error.name === "AbortError";
const masked = (result: ExecutionResult, mask: MaskError): ExecutionResult =>
  result.errors ? { ...result, errors: result.errors.map((error) => mask(error) as GraphQLError) } : result;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * Maps a source stream; unlike an async generator, `return()` reaches the source at once even while a `next()` waits.
 * A failure of the source reaches the client masked, as yoga's per-result error handling would have sent it.
 * A class whose `next()` chains promises rather than awaits: a stream waits in `next()` for hours, and an async
 * method's idle frame (its generator, registers and promises) and an object literal's own method closures cost each
 * stream more than a pending `then` and shared methods (docs/decisions.md, "Memory").
 */
class MappedStream<T, U> implements AsyncIterableIterator<U> {
  constructor(
    private readonly source: AsyncIterator<T>,
    private readonly map: (value: T) => Promise<U>,
    private readonly mask: MaskError,
  ) {}

  next(): Promise<IteratorResult<U>> {
    return this.source.next().then(
      (step) => (step.done ? DONE : this.map(step.value).then((value) => ({ value, done: false }))),
      (error: unknown) => {
        throw isAbort(error) ? error : this.mask(error);
      },
    );
  }

  async return(): Promise<IteratorResult<U>> {
    await this.source.return?.();
    return DONE;
  }

  async throw(error: unknown): Promise<IteratorResult<U>> {
    await this.source.return?.();
    throw error;
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}

export async function sharedSubscribe(
  args: ExecutionArgs,
  mask: MaskError,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  forgetScopeChecks(args.contextValue); // the subscription's own check, made once (authorizeOnSubscribe)
  if (!(Symbol.asyncIterator in source)) return masked(source as ExecutionResult, mask);
  const key = operationKey(args);
  const destination = liveDestinationOf(args.contextValue);
  if (destination && source instanceof ChangeStream) {
    const live = liveFrames(destination, (event) => sharedResultNow(event, key, args, mask));
    if (live) source.deliverLive(live);
  }
  const deliver = (payload: unknown) => executeShared(payload, key, args, mask);
  return new MappedStream((source as AsyncIterable<unknown>)[Symbol.asyncIterator](), deliver, mask);
}

/**
 * The envelop plugin: both transports (graphql-ws and SSE) subscribe through yoga's pipeline, so both share. It ends
 * that pipeline (setResultAndStopExecution), so it goes after every plugin whose onSubscribe must run: a plugin after
 * it adds nothing to a subscription. That is its point. Yoga's masked-errors plugin, which comes after the user's
 * plugins, wrapped every stream in two more iterators whose promises every delivery paid for (a third of the server's
 * time per delivery at 1,000 subscriptions, measured by a CPU profile and the stream benchmark); the errors it would
 * mask are masked here instead, once per result, with the same mask.
 */
export const useSharedSubscriptionExecution = (mask: MaskError): Plugin => ({
  async onSubscribe({ args, setResultAndStopExecution }) {
    setResultAndStopExecution(await sharedSubscribe(args, mask));
  },
});
