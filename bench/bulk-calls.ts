// `npm run bench:bulk`: what an agent's call costs as a request of its own, against the same work as one entity of a
// bulk call (Juju's agent API takes a list of entities in every call: params.Entities). Issue 37, point 3.
//
// The call is the provisioner's: recording the instance started for a machine. One at a time, it is
// setMachineProvisioned, BENCH_BULK_IN_FLIGHT requests in flight (128, as the agents' thread sends them), each its own
// GraphQL operation over graphql-ws, its own operation on the model (the server's group commit shares transactions
// between them); in bulk, setMachinesProvisioned naming BENCH_BULK_SIZE machines (100, the most a call takes), two calls
// in flight: one operation, one lock, the machines read together. Both over one graphql-ws socket, as the agents send
// their calls (bench/ws-api.ts), against a server started as `npm start` runs it with its agents off (LIFELINE_AGENTS=0),
// so the only writes are the benchmark's. The modes alternate, BENCH_BULK_ROUNDS rounds of each, every round on
// BENCH_BULK_MACHINES machines of its own (added first; one untimed round of each warms the server up).
//
// Each round prints, a machine: the time, the server's CPU (its /proc time over the round), PostgreSQL's (all its
// processes, bench/machine-cpu.ts) and the whole machine's; each as a ratio to a raw single-row insert measured in the
// same run (bench/raw-postgres.ts), and bulk's against one at a time of the same round pair.
//
// Then the same comparison for the agents' own calls, through the agents' connection (src/agents/connection.ts) as a
// process's agents make them: each machine's agent reports its machine started with its own token, all at once. One at
// a time, each is setMachineStatus on a request slot of its own; gathered at the slot (request-slots.ts), the calls
// waiting for a slot go together as setMachinesStatus standing for their agents, each item checked against its own
// agent's token.
//
// It needs PostgreSQL on a loopback address (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres),
// creates a database of its own there and drops it at the end. Every request has a deadline (BENCH_DEADLINE_S, 120).
import postgres from "postgres";
import { AgentConnection } from "../src/agents/connection.js";
import { machineStatusCalls } from "../src/agents/gathered-calls.js";
import { RequestSlots } from "../src/agents/request-slots.js";
import { SetMachineStatusDocument } from "../src/client/graphql.js";
import { createBenchDatabase } from "./database.js";
import { type LifelineProcess, serverNodeFlags, startLifeline } from "./lifeline-process.js";
import { cpuWindow, localPostmaster } from "./machine-cpu.js";
import { cpuSeconds } from "./process-sampler.js";
import { measureRawInserts } from "./raw-postgres.js";
import { loadAverages, machineLine, printRow, ratio } from "./stats.js";
import { WsApi } from "./ws-api.js";

const MACHINES = Number(process.env.BENCH_BULK_MACHINES ?? 3000);
const ROUNDS = Number(process.env.BENCH_BULK_ROUNDS ?? 2);
const IN_FLIGHT = Number(process.env.BENCH_BULK_IN_FLIGHT ?? 128);
const SIZE = Number(process.env.BENCH_BULK_SIZE ?? 100);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 120) * 1000;
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 3);
const MODEL = "bulk";

const log = (line: string) => console.error(`bench: ${line}`);

/** Runs `work` over `items`, `count` at a time. */
async function inFlight<T>(items: readonly T[], count: number, work: (item: T) => Promise<unknown>): Promise<void> {
  const slots = new RequestSlots(count);
  await Promise.all(items.map((item) => slots.run(() => work(item))));
}

const instanceOf = (machine: string) => `i-bench-${machine}`;

const oneAtATime = (api: WsApi) => (machines: readonly string[]) =>
  inFlight(machines, IN_FLIGHT, async (machine) => {
    const answer = await api.request<{ setMachineProvisioned: { id: string; instanceId: string } }>(
      "setMachineProvisioned",
      `mutation($model: String!, $machine: String!, $instanceId: String!) {
        setMachineProvisioned(input: { model: $model, machine: $machine, instanceId: $instanceId }) { id instanceId }
      }`,
      { model: MODEL, machine, instanceId: instanceOf(machine) },
      DEADLINE_MS,
    );
    if (answer.setMachineProvisioned.instanceId !== instanceOf(machine))
      throw new Error(`setMachineProvisioned answered ${JSON.stringify(answer.setMachineProvisioned)} for ${machine}`);
  });

const inBulk = (api: WsApi) => (machines: readonly string[]) => {
  const calls: string[][] = [];
  for (let i = 0; i < machines.length; i += SIZE) calls.push(machines.slice(i, i + SIZE));
  return inFlight(calls, 2, async (call) => {
    const answer = await api.request<{ setMachinesProvisioned: { id: string; instanceId: string }[] }>(
      "setMachinesProvisioned",
      `mutation($model: String!, $machines: [MachineInstanceInput!]!) {
        setMachinesProvisioned(input: { model: $model, machines: $machines }) { id instanceId }
      }`,
      { model: MODEL, machines: call.map((machine) => ({ machine, instanceId: instanceOf(machine) })) },
      DEADLINE_MS,
    );
    // Every machine answered, in order, with its instance: a bulk call that did less would look cheaper than it is.
    const wrong = call.findIndex((machine, i) => answer.setMachinesProvisioned[i]?.instanceId !== instanceOf(machine));
    if (answer.setMachinesProvisioned.length !== call.length || wrong >= 0)
      throw new Error(`setMachinesProvisioned answered ${JSON.stringify(answer.setMachinesProvisioned[wrong])} for ${call[wrong]}`);
  });
};

/** Each machine's agent reports it started, with its own token: each call alone, or gathered at the slot. */
const agentsReport =
  (agents: AgentConnection, tokens: ReadonlyMap<string, string>, gathered: boolean) => async (machines: readonly string[]) => {
    await Promise.all(
      machines.map((machine) => {
        const item = { model: MODEL, machine, status: "STARTED" as const };
        const token = tokens.get(machine)!;
        return gathered
          ? agents.gather(machineStatusCalls(agents), MODEL, item, token)
          : agents.request(SetMachineStatusDocument, { input: item }, token);
      }),
    );
  };

interface Round {
  seconds: number;
  server: number;
  postgres: number;
  machine: number;
}

async function timed(server: LifelineProcess, postmaster: number | null, work: () => Promise<void>): Promise<Round> {
  const serverCpu = () => {
    const seconds = cpuSeconds(server.pid);
    if (Number.isNaN(seconds)) throw new Error("the server has exited");
    return seconds;
  };
  const window = cpuWindow(postmaster);
  const cpuAtStart = serverCpu();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const serverSeconds = serverCpu() - cpuAtStart;
  const shares = window.end();
  return { seconds, server: serverSeconds, postgres: shares.postgres, machine: shares.machine };
}

async function main() {
  const startLoad = loadAverages();
  const db = await createBenchDatabase("bulk");
  let server: LifelineProcess | undefined;
  const sql = postgres(db.url.toString(), { max: 1, onnotice: () => {} });
  try {
    const raw = await measureRawInserts(db.url.toString(), 4, RAW_SECONDS);
    const rawMs = 1000 / raw.insertRate;
    log(`raw PostgreSQL: ${Math.round(raw.insertRate).toLocaleString("en-US")}/s single-row inserts with 4 connections`);
    server = await startLifeline({ DATABASE_URL: db.url.toString(), LIFELINE_AGENTS: "0" }, serverNodeFlags());
    const api = new WsApi(server.url);
    const postmaster = await localPostmaster(sql);

    await api.request("addModel", `mutation($name: String!) { addModel(input: { name: $name }) { name } }`, { name: MODEL }, DEADLINE_MS);
    const total = (2 * ROUNDS + 1) * MACHINES;
    const machines: string[] = [];
    await inFlight(
      Array.from({ length: total }, (_, i) => i),
      64,
      async () => {
        const added = await api.request<{ addMachine: { id: string } }>(
          "addMachine",
          `mutation($model: String!) { addMachine(input: { model: $model }) { id } }`,
          { model: MODEL },
          DEADLINE_MS,
        );
        machines.push(added.addMachine.id);
      },
    );
    log(`${total.toLocaleString("en-US")} machines added`);
    let taken = 0;
    const take = (count: number) => {
      taken += count;
      return machines.slice(taken - count, taken);
    };
    const one = oneAtATime(api);
    const bulk = inBulk(api);
    // Warm-up, untimed: the server's code compiled by V8's optimising tier for both paths.
    await one(take(Math.ceil(MACHINES / 2)));
    await bulk(take(Math.ceil(MACHINES / 2)));

    // The machines' agents' tokens, for the agents' rounds (on the same machines, still pending).
    const tokens = new Map<string, string>();
    for (let i = 0; i < machines.length; i += SIZE) {
      const issued = await api.request<{ issueMachinesCredentials: { tag: string; token: string }[] }>(
        "issueMachinesCredentials",
        `mutation($model: String!, $machines: [String!]!) { issueMachinesCredentials(input: { model: $model, machines: $machines }) { tag token } }`,
        { model: MODEL, machines: machines.slice(i, i + SIZE) },
        DEADLINE_MS,
      );
      for (const { tag, token } of issued.issueMachinesCredentials) tokens.set(tag.slice("machine-".length), token);
    }
    const agents = new AgentConnection(server.url);
    const reportAlone = agentsReport(agents, tokens, false);
    const reportGathered = agentsReport(agents, tokens, true);
    taken = 0;
    await reportAlone(take(Math.ceil(MACHINES / 2)));
    await reportGathered(take(Math.ceil(MACHINES / 2)));

    const rows: string[][] = [];
    const perMachine = (seconds: number) => `${Math.round((1e6 * seconds) / MACHINES)} µs`;
    const row = (round: number, label: string, figures: Round, against?: Round) =>
      rows.push([
        String(round),
        label,
        Math.round(MACHINES / figures.seconds).toLocaleString("en-US"),
        perMachine(figures.seconds),
        ratio((1000 * figures.seconds) / MACHINES / rawMs),
        perMachine(figures.server),
        perMachine(figures.postgres),
        perMachine(figures.machine),
        against ? ratio(figures.server / against.server) : "",
      ]);
    for (let round = 1; round <= ROUNDS; round++) {
      const alone = await timed(server, postmaster, () => reportAlone(take(MACHINES)));
      const gathered = await timed(server, postmaster, () => reportGathered(take(MACHINES)));
      row(round, "agents: setMachineStatus, each alone", alone);
      row(round, "agents: gathered at the slot (setMachinesStatus)", gathered, alone);
      log(`agents' round ${round} done`);
    }
    await agents.close();

    taken = MACHINES; // the provisioner's rounds: the machines after its warm-up's, none provisioned yet
    for (let round = 1; round <= ROUNDS; round++) {
      const single = await timed(server, postmaster, () => one(take(MACHINES)));
      const many = await timed(server, postmaster, () => bulk(take(MACHINES)));
      row(round, "provisioner: one a call", single);
      row(round, `provisioner: ${SIZE} a call`, many, single);
      log(`round ${round} done`);
    }

    console.log(machineLine(startLoad));
    console.log(
      `raw PostgreSQL, same run: ${Math.round(raw.insertRate).toLocaleString("en-US")}/s single-row inserts with 4 connections (${rawMs.toFixed(3)} ms each)`,
    );
    console.log(
      `${MACHINES.toLocaleString("en-US")} machines a round; one at a time: ${IN_FLIGHT} requests in flight; in bulk: ${SIZE} machines a call, 2 calls in flight; figures a machine\n`,
    );
    printRow([
      "round",
      "calls",
      "machines/s",
      "time",
      "÷ raw insert",
      "server CPU",
      "PostgreSQL CPU",
      "machine CPU",
      "server CPU, ÷ the row above",
    ]);
    printRow(Array(9).fill("---"));
    for (const row of rows) printRow(row);
  } finally {
    await sql.end({ timeout: 5 });
    await server?.stop();
    await db.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
