// Agents as their own OS processes, against a server anywhere:
//
//   npm run agent -- machine <id> --url http://host:4000/graphql --credentials-file agent.json [--address 10.0.0.5]
//
// The credentials file is what the provisioner hands an instance (or what an
// admin's issueMachineCredentials returned, with the model and machine):
// {"model": "default", "machine": "1", "tag": "machine-1", "token": "llm_…"}.
// The agent runs until its machine is Dead (exit 0) or it is told to stop.
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { parseArgs } from "node:util";
import { AgentConnection } from "./connection.js";
import { MachineAgent, type MachineAgentCredentials } from "./machine-agent.js";

const usage = "usage: npm run agent -- machine <id> --url <api url> --credentials-file <file> [--address <private address>]";

/** The host's first IPv4 address other than loopback (what its units publish as private-address), else loopback. */
function hostAddress(): string {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return addresses.find((a) => a.family === "IPv4" && !a.internal)?.address ?? "127.0.0.1";
}

function fail(message: string): never {
  console.error(`lifeline agent: ${message}\n${usage}`);
  process.exit(2);
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { url: { type: "string" }, "credentials-file": { type: "string" }, address: { type: "string" } },
  });
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
    log: (line) => console.log(`lifeline agent: ${line}`),
  });
  const stop = () => agent.stop();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await agent.start();
  await agent.finished;
  await api.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(`lifeline agent: ${String(error)}`);
  process.exit(1);
});
