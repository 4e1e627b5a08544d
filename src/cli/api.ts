// One GraphQL request over HTTP with the generated client's typed documents: no GraphQL text lives in src/cli.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";

export interface Server {
  /** The GraphQL endpoint, …/graphql. */
  endpoint: string;
  token: string | null;
}

/** The API answered with an error: its stable code (extensions.code), message and details. */
export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** No answer from the server at all. */
export class Unreachable extends Error {}

/** `http://host:4000` and `http://host:4000/graphql` both name the server; requests go to its GraphQL path. */
export function graphqlEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Unreachable(`not a URL: ${url}`);
  }
  if (!parsed.pathname.endsWith("/graphql")) parsed.pathname = `${parsed.pathname.replace(/\/$/, "")}/graphql`;
  return parsed.href;
}

export async function request<Result, Variables>(
  server: Server,
  document: TypedDocumentNode<Result, Variables>,
  variables: Variables,
): Promise<Result> {
  let response: Response;
  try {
    response = await fetch(server.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/graphql-response+json, application/json",
        ...(server.token ? { authorization: `Bearer ${server.token}` } : {}),
      },
      body: JSON.stringify({ query: print(document), variables }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Unreachable(`cannot reach ${server.endpoint}: ${cause?.code ?? cause?.message ?? String(error)}`);
  }
  const body = (await response.json().catch(() => null)) as {
    data?: Result;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  } | null;
  const error = body?.errors?.[0];
  if (error) {
    const { code, ...details } = error.extensions ?? {};
    throw new Refusal(typeof code === "string" ? code : "ERROR", error.message, details);
  }
  if (!body?.data) throw new Unreachable(`${server.endpoint} answered HTTP ${response.status} without GraphQL data: is it Lifeline?`);
  return body.data;
}
