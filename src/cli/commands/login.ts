// `lifeline login <url> (--token T | --code C)` and `lifeline logout`.
import { hostname } from "node:os";
import type { Command } from "commander";
import { CliIssueTokenDocument, CliModelsDocument } from "../../client/graphql.js";
import { graphqlEndpoint, Refusal, request, Unreachable } from "../api.js";
import { credentialsFile, forgetCredentials, writeCredentials } from "../credentials.js";
import { UsageError } from "../exit-codes.js";

/** The server's login route answers a code with a session cookie (src/server/login.ts): that session's token. */
async function redeemCode(endpoint: string, code: string): Promise<string> {
  const link = new URL("login", endpoint);
  link.searchParams.set("code", code);
  let response: Response;
  try {
    response = await fetch(link, { redirect: "manual" });
  } catch (error) {
    throw new Unreachable(`cannot reach ${link.origin}: ${String((error as { cause?: unknown }).cause ?? error)}`);
  }
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("lifeline_token="));
  if (!cookie) {
    const body = (await response.json().catch(() => null)) as { errors?: { message: string }[] } | null;
    throw new Refusal("UNAUTHENTICATED", body?.errors?.[0]?.message ?? `the login link answered HTTP ${response.status}`);
  }
  return cookie.slice("lifeline_token=".length).split(";")[0]!;
}

export function loginCommands(program: Command): void {
  program
    .command("login")
    .description("log in to a Lifeline server and remember it (in $XDG_CONFIG_HOME/lifeline, readable by you alone)")
    .argument("<url>", "the server, e.g. http://127.0.0.1:4000")
    .option("--token <token>", "a bearer token (npm start prints the first admin's; an admin's issueToken makes others)")
    .option("--code <code>", "the code of the login link npm start prints: exchanged for a token of your own")
    .addHelpText("after", "\nExample:\n  lifeline login http://127.0.0.1:4000 --code login_…")
    .action(async (url: string, options: { token?: string; code?: string }) => {
      if (Boolean(options.token) === Boolean(options.code)) throw new UsageError("give one of --token or --code");
      const endpoint = graphqlEndpoint(url);
      let token = options.token ?? "";
      if (options.code) {
        // A session ends within days; the command keeps a token of its own, issued by that session (an admin's).
        const session = await redeemCode(endpoint, options.code);
        const issued = await request({ endpoint, token: session }, CliIssueTokenDocument, {
          input: { description: `lifeline command on ${hostname()}`, role: "ADMIN" },
        });
        token = issued.issueToken.token;
      }
      // Proves the token works before keeping it.
      await request({ endpoint, token }, CliModelsDocument, {});
      writeCredentials({ url: endpoint, token });
      console.log(`logged in to ${endpoint} (credentials in ${credentialsFile()})`);
    });

  program
    .command("logout")
    .description("forget the stored server and token")
    .addHelpText("after", "\nExample:\n  lifeline logout")
    .action(() => {
      console.log(forgetCredentials() ? `logged out (removed ${credentialsFile()})` : "not logged in");
    });
}
