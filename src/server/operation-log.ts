// Every refused operation logged once, with its code: who asked (an agent's tag, a person's token id), what (the
// operation's root fields), and the request's id, so an operator can follow one request, or one agent, through the log.
// Successes are logged at debug (LIFELINE_LOG=debug): an agent's mutations are its actions.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Plugin } from "graphql-yoga";
import { loggerFor } from "../core/log.js";
import type { Context } from "../graphql/context.js";
import { type Actor, agentTag } from "../model/index.js";
import { rootFieldsOf } from "./root-fields.js";

const log = loggerFor("api");

/** Who, as the log names them: `machine-1`, `unit-wordpress-0`, `person-3 (admin)`, or `anonymous`. */
export function actorName(actor: Actor | null): string {
  if (!actor) return "anonymous";
  return actor.kind === "person" ? `person-${actor.id} (${actor.role})` : agentTag(actor);
}

/**
 * Where an operation came from: yoga's WHATWG request, and node's with its response (yoga on node, and a plain POST,
 * plain-post.ts, whose request is only a method). Over graphql-ws `req` is the socket's upgrade and there is no `res`.
 */
interface RequestSource {
  request?: Request;
  req?: IncomingMessage;
  res?: unknown;
}

/** The request's id: the caller's X-Request-Id when it sent one (a proxy's), else a new one. */
function requestIdOf({ request, req, res }: RequestSource): string {
  const header = req && res ? req.headers["x-request-id"] : request?.headers?.get?.("x-request-id");
  const given = typeof header === "string" ? header : undefined;
  return given && given.length <= 200 ? given : randomUUID();
}

/** A document refused before it ran (it does not parse, or does not validate): who sent it is not known yet. */
function refusedBefore(context: RequestSource, code: string, message: string): void {
  log.info({ requestId: requestIdOf(context), code, codes: [code], message }, `refused ${code}: ${message}`);
}

export function useOperationLog(): Plugin<Context> {
  return {
    onParse({ context }) {
      return ({ result }) => {
        if (result instanceof Error) refusedBefore(context as RequestSource, "GRAPHQL_PARSE_FAILED", result.message);
      };
    },
    onValidate({ context }) {
      return ({ valid, result }) => {
        if (!valid && result.length)
          refusedBefore(context as RequestSource, "GRAPHQL_VALIDATION_FAILED", result.map((e) => e.message).join("; "));
      };
    },
    onExecute({ args }) {
      const root = rootFieldsOf(args.document, args.operationName);
      if (!root) return;
      const { operation, fields } = root;
      const started = performance.now();
      return {
        onExecuteDone({ result }) {
          if (!("errors" in result) && !log.isLevelEnabled("debug")) return;
          const context = args.contextValue;
          const errors = "errors" in result ? (result.errors ?? []) : [];
          const entry = {
            requestId: requestIdOf(context as RequestSource),
            actor: actorName(context.actor),
            operation,
            fields,
            ms: Math.round((performance.now() - started) * 10) / 10,
          };
          if (!errors.length) return log.debug(entry, `${operation} ${fields.join(", ")}: ok`);
          const codes = [...new Set(errors.map((e) => String(e.extensions?.code ?? "ERROR")))];
          log.info(
            { ...entry, code: codes[0], codes, message: errors[0]?.message },
            `${operation} ${fields.join(", ")} refused ${codes.join(", ")}: ${errors[0]?.message}`,
          );
        },
      };
    },
  };
}
