// Agents as their own OS processes, against a server anywhere:
//
//   npm run agent -- machine <id> --url http://host:4000/graphql --credentials-file agent.json [--address 10.0.0.5]
//   lifeline agent machine <id> …   (the same, from the lifeline command: src/cli/commands/agent.ts)
//
// The credentials file is what the provisioner hands an instance (or what an
// admin's issueMachineCredentials returned, with the model and machine):
// {"model": "default", "machine": "1", "tag": "machine-1", "token": "llm_…"}.
// The agent runs until its machine is Dead (exit 0) or it is told to stop.
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { exitAfterLog, loggerFor } from "../core/log.js";
import { AgentConnection } from "./connection.js";
import { MachineAgent, type MachineAgentCredentials } from "./machine-agent.js";

/** The agent process's log: its machine agent's lines, as the server logs its agents'. */
const log = loggerFor("agent");

const usage = "usage: npm run agent -- machine <id> --url <api url> --credentials-file <file> [--address <private address>]";

const help = `${usage}
   or: lifeline agent machine <id> … (the same options)

Runs a machine's agent as its own process against a server anywhere, until its machine is Dead (exit 0).

Options:
  --url <api url>              the server's GraphQL endpoint, e.g. http://10.0.0.1:4000/graphql
  --credentials-file <file>    JSON: {"model": "default", "machine": "1", "token": "llm_…"}
                               (what the provisioner hands an instance, or an admin's issueMachineCredentials)
  --address <address>          the private address its units publish (default: the host's first IPv4 address)
  -h, --help                   this help

Example:
  lifeline agent machine 1 --url http://10.0.0.1:4000/graphql --credentials-file machine-1.json`;

/** The host's first IPv4 address other than loopback (what its units publish as private-address), else loopback. */
function hostAddress(): string {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return addresses.find((a) => a.family === "IPv4" && !a.internal)?.address ?? "127.0.0.1";
}

function fail(message: string): never {
  console.error(`lifeline agent: ${message}\n${usage}`);
  process.exit(2);
}

/** Runs the agent the arguments name (those after `agent`); exits the process when it is done. */
export async function runAgent(args: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseAgentArgs>;
  try {
    parsed = parseAgentArgs(args);
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(help);
    process.exit(0);
  }
  const [kind, id] = positionals;
  if (kind !== "machine" || !id) fail("name the agent: machine <id>");
  if (!values.url) fail("--url is required");
  if (!values["credentials-file"]) fail("--credentials-file is required");
  let credentials: MachineAgentCredentials;
  try {
    credentials = JSON.parse(readFileSync(values["credentials-file"], "utf8")) as MachineAgentCredentials;
  } catch (error) {
    fail(`cannot read the credentials file: ${(error as Error).message}`);
  }
  if (typeof credentials.token !== "string" || typeof credentials.model !== "string") fail("the credentials file needs model and token");
  if (credentials.machine !== id) fail(`the credentials are machine ${credentials.machine}'s, not machine ${id}'s`);
  credentials.tag ??= `machine-${id.replaceAll("/", "-")}`;

  const api = new AgentConnection(values.url);
  const agent = new MachineAgent(api, credentials, {
    privateAddress: values.address ?? hostAddress(),
    log: (line) => log.info(line),
  });
  const stop = () => agent.stop();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await agent.start();
  await agent.finished;
  await api.close();
  exitAfterLog(0);
}

const parseAgentArgs = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      "credentials-file": { type: "string" },
      address: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });

// `npm run agent` runs this file itself; `lifeline agent` imports runAgent.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAgent(process.argv.slice(2)).catch((error) => exitAfterLog(1, () => log.fatal({ err: error }, String(error))));
}
