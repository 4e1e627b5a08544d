// Which server a command talks to, and as whom: --url/--token, then LIFELINE_URL/LIFELINE_TOKEN, then what
// `lifeline login` stored.
import { graphqlEndpoint, type Server } from "./api.js";
import { readCredentials } from "./credentials.js";
import { UsageError } from "./exit-codes.js";

export interface ServerOptions {
  url?: string;
  token?: string;
}

export function resolveServer(options: ServerOptions, env: NodeJS.ProcessEnv = process.env): Server {
  const stored = readCredentials(env);
  const url = options.url || env.LIFELINE_URL || stored?.url;
  if (!url) throw new UsageError("no server: run `lifeline login <url>` first, or give --url or LIFELINE_URL");
  // A stored token belongs to the stored server: it is not sent to another one named by --url.
  const storedToken = stored && graphqlEndpoint(stored.url) === graphqlEndpoint(url) ? stored.token : undefined;
  return { endpoint: graphqlEndpoint(url), token: options.token || env.LIFELINE_TOKEN || storedToken || null };
}
