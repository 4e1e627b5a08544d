// Plain POSTs: a JSON body to /graphql, from a script or an agent (no Origin, so no CORS), asking for JSON back. Yoga
// answers every request through the WHATWG fetch API: a Request and its headers built around node's request, the body
// read through a web stream, a Response built and copied back onto node's. For a mutation that is a quarter of the
// server's CPU (measured: 860 → 650 µs a setConstraints, 8 clients over keep-alive; docs/decisions.md). A plain POST
// skips that wrapping and nothing else: its parameters go through yoga's own checks, envelop pipeline (every plugin),
// error handling and result processor, so the answer is the one yoga would give (test/plain-post.test.ts compares
// them). Any other request, and a plain one whose body is not a JSON object of GraphQL's parameters, is yoga's whole.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ExecutionResult } from "graphql";
import { processRegularResult, type YogaServerInstance } from "graphql-yoga";
import { loggerFor } from "../core/log.js";
import type { Context } from "../graphql/context.js";
import { MASKED_MESSAGE } from "../graphql/errors.js";
import { refusalBody } from "./http-status.js";

type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

/** GraphQL's JSON media types: yoga's result processor answers in either. */
const JSON_TYPES = new Set(["application/json", "application/graphql-response+json"]);

/** A header's media types, lower case; null when one carries a parameter other than a utf-8 charset (yoga's default). */
function mediaTypes(header: string): string[] | null {
  const types: string[] = [];
  for (const entry of header.replace(/\s/g, "").toLowerCase().split(",")) {
    const [type, ...parameters] = entry.split(";");
    if (parameters.some((p) => p !== "charset=utf-8")) return null;
    types.push(type!);
  }
  return types;
}

/**
 * What a plain POST asks to get back (the first of GraphQL's JSON types it lists, as yoga picks), or null when the
 * request is not one. Only requests that name JSON types and nothing else: to a wildcard, or no Accept at all, yoga
 * answers a subscription as an event stream, which is not this path's to give.
 */
function plainAnswer(req: IncomingMessage): string | null {
  const { headers } = req;
  if (req.method !== "POST" || req.url?.includes("?") || headers.origin !== undefined || headers["content-encoding"] !== undefined)
    return null;
  const body = mediaTypes(headers["content-type"] ?? "");
  const accepted = mediaTypes(headers.accept ?? "");
  if (body?.length !== 1 || body[0] !== "application/json" || !accepted?.every((type) => JSON_TYPES.has(type))) return null;
  return accepted[0]!;
}

const PARAMETERS: Record<string, (value: unknown) => boolean> = {
  query: (value) => typeof value === "string",
  variables: (value) => isObject(value),
  operationName: (value) => typeof value === "string",
  extensions: (value) => isObject(value),
};
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** GraphQL's parameters, as a plain POST's body carries them; anything else (yoga refuses it, or batches it) is yoga's. */
function parametersOf(body: string): Record<string, unknown> | null {
  let params: unknown;
  try {
    params = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(params) || typeof params.query !== "string") return null;
  for (const [name, value] of Object.entries(params)) if (value != null && !PARAMETERS[name]?.(value)) return null;
  return params;
}

/** What yoga's result processor builds, without the WHATWG Response around it. */
class Answer {
  readonly status: number;
  readonly statusText: string | undefined;
  readonly headers: Record<string, string>;
  constructor(
    readonly body: string | null,
    init: { status?: number; statusText?: string; headers?: Record<string, string> } = {},
  ) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText;
    this.headers = init.headers ?? {};
  }
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes yoga's answer for a request whose body was read here (a plain POST's that turned out not to be plain). */
async function answerByYoga(yoga: Yoga, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  const response = await yoga.fetch(`http://${req.headers.host ?? "localhost"}${req.url}`, { method: "POST", headers, body }, { req, res });
  const answer = Buffer.from(await response.arrayBuffer());
  const sent: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    sent[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, response.statusText, { ...sent, "content-length": String(answer.length) }).end(answer);
}

/**
 * Answers `req` when it is a plain POST (true), else leaves it to the caller (false). `yoga` is the app it answers
 * for: its plugins, masking and result processing are what run.
 */
export function plainPosts(yoga: Yoga): (req: IncomingMessage, res: ServerResponse) => boolean {
  const answer = async (req: IncomingMessage, res: ServerResponse, accepted: string) => {
    const body = await bodyOf(req);
    const params = parametersOf(body.toString());
    // A subscription is yoga's too (refused: JSON cannot carry a stream). The word anywhere in the document sends it
    // there, which is only ever safe.
    if (!params || (params.query as string).includes("subscription")) return answerByYoga(yoga, req, res, body);
    // Yoga's server context on node ({ req, res }), with what it adds: the parameters, and the request, of which its
    // plugins read only the method (usePreventMutationViaGET, which also gives a document that does not parse its code).
    const request = { method: "POST" } as Request;
    const context = { req, res, params, request };
    const result = (await yoga.getResultForParams({ params, request }, context)) as ExecutionResult;
    const {
      status,
      statusText,
      headers,
      body: text,
    } = processRegularResult(result, { Response: Answer } as never, accepted) as unknown as Answer;
    const bytes = text === null ? undefined : Buffer.from(text);
    res.writeHead(status, statusText, { ...headers, "content-length": String(bytes?.length ?? 0) }).end(bytes);
  };
  return (req, res) => {
    const accepted = plainAnswer(req);
    if (!accepted) return false;
    answer(req, res, accepted).catch((error: unknown) => {
      // The client went away mid-body (nobody to answer), or yoga failed outside its own handling: a fault, as yoga
      // answers one, logged.
      if (res.headersSent || req.destroyed) return void res.destroy();
      loggerFor("api").error({ err: error }, "a plain POST failed");
      const text = refusalBody("INTERNAL_SERVER_ERROR", MASKED_MESSAGE);
      res
        .writeHead(500, { "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(text)) })
        .end(text);
    });
    return true;
  };
}
