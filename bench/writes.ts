// `npm run bench:writes`: Lifeline's write path (issue 11, point 5), from one run,
// each figure beside this machine's raw PostgreSQL measured in the same run:
//
// - Raw reference: `pgbench -N -c 8 -j 2 -T <s>` on the bench database (initialised
//   with `pgbench -i -s 1`), its `tps` line; without pgbench on PATH, the same
//   statement mix as its -N script (update pgbench_accounts, select it, insert into
//   pgbench_history, in one transaction) through postgres.js on 8 connections,
//   labelled as such. And one connection's autocommit single-row insert, p50/p99.
// - The server as `npm start` runs it (its own process), with its agents off
//   (LIFELINE_AGENTS=0): the only writes are the benchmark's.
// - Two transports: keep-alive HTTP, one socket a client (as a script's requests), and
//   graphql-ws, one socket a client (as the agents send their calls,
//   src/agents/connection.ts). Each runs every figure below.
// - Throughput, two modes, 8 clients, each running cycles of
//   addUnit (count 1, placed on a machine already provisioned) → removeUnit (the unit
//   goes Dying: its machine has an instance, so it waits for its agent) → setUnitDead
//   (the unit agent's call) → removeDeadUnit (the deployer's), for BENCH_WRITE_SECONDS:
//   "8 models" (one application in a model of its own per client), and "1 model" (the
//   8 clients in one model, each on an application of its own). A cycle is placed on a
//   provisioned machine because a unit on a machine without an instance is removed at
//   once by removeUnit (seed 004): the last two steps would never run. Every response is
//   checked (a removeUnit must answer DYING, setUnitDead DEAD, removeDeadUnit true);
//   the first error stops the run with its message. Mutations/s, p50 per operation,
//   the server's CPU per mutation (its /proc CPU time over the run) and peak RSS.
// - Latency: one client, one `setConstraints` on an application at a time,
//   BENCH_LATENCY_COUNT of them: p50, p90, p99.
// - A table of each figure, its raw counterpart, the ratio, and the issue's target.
// - Where a write's CPU goes (bench/machine-cpu.ts): over pgbench's window and each
//   throughput run's, the machine's busy CPU and PostgreSQL's (all its processes), per
//   transaction and per mutation, beside the server's and the clients'; and the CPU a
//   mutation the issue's throughput target leaves on this machine's cores.
//
// It needs PostgreSQL on a loopback address (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres), creates a database of its own there and
// drops it at the end. Knobs (environment):
//   BENCH_WRITE_SECONDS    each throughput run's window, default 10
//   BENCH_PGBENCH_SECONDS  pgbench's -T (or the fallback's run), default BENCH_WRITE_SECONDS
//   BENCH_PGBENCH          the pgbench to run, default "pgbench" looked up on PATH; "none"
//                          uses the postgres.js statement mix even when pgbench is there
//   BENCH_TRANSPORTS       which transports, default "http,ws" (either alone: "http", "ws")
//   BENCH_LATENCY_COUNT    sequential setConstraints timed, default 500 (a transport)
//   BENCH_WARMUP_CYCLES    untimed cycles per client before each throughput run, default 50
//                          (and 10 × that untimed setConstraints before the latency run): the
//                          figures are the server's steady state, its code compiled by V8's
//                          optimizing tier; with 3 (30 setConstraints), the latency p50 counted
//                          code still warming up (1.99 ms against 1.65 ms with 50, same machine)
//   BENCH_DEADLINE_S       how long setup, the latency run, pgbench, or a throughput run past
//                          its window may take, default 120; each request has that deadline
//   BENCH_PROFILE=<dir>    a V8 CPU profile of the server, written there when it stops
// Every loop is bounded by a deadline. On a deadline or an error the run says what each
// client was doing and what was left, and exits 1.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { Agent } from "node:http";
import { delimiter, join } from "node:path";
import postgres from "postgres";
import { type Api, ApiTimeout, apiAt, postGraphql } from "./api.js";
import { createBenchDatabase } from "./database.js";
import { type LifelineProcess, serverNodeFlags, startLifeline } from "./lifeline-process.js";
import { busyShare, type CpuShares, cpuWindow, localPostmaster, machineCores } from "./machine-cpu.js";
import { ProcessSampler } from "./process-sampler.js";
import { measureRawInserts } from "./raw-postgres.js";
import { loadAverages, machineLine, ms, percentile, printHeader, printRow, rate, ratio } from "./stats.js";
import { WsApi } from "./ws-api.js";

const WRITE_SECONDS = Number(process.env.BENCH_WRITE_SECONDS ?? 10);
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? WRITE_SECONDS);
const PGBENCH = process.env.BENCH_PGBENCH ?? "pgbench";
const LATENCY_COUNT = Number(process.env.BENCH_LATENCY_COUNT ?? 500);
const WARMUP_CYCLES = Number(process.env.BENCH_WARMUP_CYCLES ?? 50);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 120) * 1000;
const TRANSPORT_NAMES = { http: "HTTP", ws: "graphql-ws" } as const;
type Transport = (typeof TRANSPORT_NAMES)[keyof typeof TRANSPORT_NAMES];
const TRANSPORTS = (process.env.BENCH_TRANSPORTS ?? "http,ws")
  .split(",")
  .map((t) => TRANSPORT_NAMES[t.trim() as keyof typeof TRANSPORT_NAMES]);
/** As pgbench's -c 8: the clients of each throughput run, and the fallback's connections. */
const CLIENTS = 8;
/** pgbench's -j 2: its worker threads. */
const PGBENCH_THREADS = 2;
/** The bundled charm the cycles deploy: no peers, no relations, so nothing but the cycle touches its units. */
const CHARM = "memcached";
/** The issue's targets. */
const TARGET_THROUGHPUT = 0.4;
const TARGET_LATENCY = 4;
const TARGET_CPU_MS = 1;

for (const [name, value] of Object.entries({ WRITE_SECONDS, PGBENCH_SECONDS, LATENCY_COUNT, DEADLINE_MS }))
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`bench: ${name} must be a positive number`);
    process.exit(2);
  }
if (TRANSPORTS.length === 0 || TRANSPORTS.some((t) => t === undefined)) {
  console.error('bench: BENCH_TRANSPORTS is a list of "http" and "ws"');
  process.exit(2);
}
if (!Number.isInteger(WARMUP_CYCLES) || WARMUP_CYCLES < 0) {
  console.error("bench: BENCH_WARMUP_CYCLES must be a count (0: no warm-up)");
  process.exit(2);
}

const log = (line: string) => console.log(`bench: ${line}`);

/** The system's monotonic clock in µs: the clock a V8 CPU profile's timestamps count (CLOCK_MONOTONIC), whichever process took it. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** With BENCH_PROFILE, a phase's window on the profile's clock, so that its samples can be told from the rest. */
const profileWindow = (from: number) => (process.env.BENCH_PROFILE ? ` (profile window ${from} to ${monotonicMicros()} µs)` : "");
const n0 = (value: number) => Math.round(value).toLocaleString("en-US");

/** A run that stopped on an error or a deadline; its message says what was left. */
class BenchFailure extends Error {}

// ---------------------------------------------------------------------------
// The raw reference

interface PgbenchFigures {
  tps: number;
  /** How it was measured, for the table. */
  label: string;
  /** What ran, in a word or two, for the CPU table's row. */
  name: string;
  /** Transactions committed in its window. */
  transactions: number;
  /** The machine's and PostgreSQL's CPU over its window. */
  cpu: CpuShares;
  seconds: number;
}

/** The executable's path when `name` is one (a path, or a name found on PATH), else null. */
function executable(name: string): string | null {
  const candidates = name.includes("/") ? [name] : (process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, name));
  for (const path of candidates)
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {}
  return null;
}

/** Runs a command with libpq's environment for `db`; resolves with its output, or fails it with it. */
function runCommand(bin: string, args: string[], db: URL, timeoutMs: number): Promise<string> {
  const env = {
    ...process.env,
    PGHOST: db.hostname.replace(/^\[|\]$/g, ""),
    PGPORT: db.port || "5432",
    PGUSER: decodeURIComponent(db.username || "postgres"),
    PGDATABASE: decodeURIComponent(db.pathname.slice(1)),
    ...(db.password ? { PGPASSWORD: decodeURIComponent(db.password) } : {}),
  };
  const child = spawn(bin, args, { env });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new BenchFailure(`${bin} ${args.join(" ")}: DEADLINE (${timeoutMs / 1000} s) passed; its output so far:\n${output}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new BenchFailure(`${bin} ${args.join(" ")} exited ${code ?? signal}:\n${output}`));
    });
  });
}

async function runPgbench(bin: string, db: URL, sql: postgres.Sql, postmaster: number | null): Promise<PgbenchFigures> {
  await runCommand(bin, ["-i", "-s", "1", "-q"], db, DEADLINE_MS);
  const args = ["-N", "-c", String(CLIENTS), "-j", String(PGBENCH_THREADS), "-T", String(Math.ceil(PGBENCH_SECONDS))];
  try {
    const cpu = cpuWindow(postmaster);
    const started = performance.now();
    const output = await runCommand(bin, args, db, PGBENCH_SECONDS * 1000 + DEADLINE_MS);
    const seconds = (performance.now() - started) / 1000;
    const shares = cpu.end();
    const tps = /^tps = ([\d.]+)/m.exec(output)?.[1];
    const transactions = /^number of transactions actually processed: (\d+)/m.exec(output)?.[1];
    if (!tps || !transactions) throw new BenchFailure(`pgbench printed no "tps = " or "transactions actually processed" line:\n${output}`);
    return {
      tps: Number(tps),
      label: `pgbench ${args.join(" ")}`,
      name: "pgbench -N",
      transactions: Number(transactions),
      cpu: shares,
      seconds,
    };
  } finally {
    await dropPgbenchTables(sql);
  }
}

const dropPgbenchTables = (sql: postgres.Sql) =>
  sql`drop table if exists pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history`;

/**
 * Without pgbench: its tables at scale 1 (1 branch, 10 tellers, 100,000 accounts), then its -N script's
 * transaction (update an account, read it back, insert a history row) on 8 connections for the same time.
 * postgres.js sends prepared statements, as pgbench -M prepared would.
 */
async function runPgbenchMix(db: URL, why: string, postmaster: number | null): Promise<PgbenchFigures> {
  const sql = postgres(db.toString(), { max: CLIENTS, onnotice: () => {} });
  try {
    await sql`create table pgbench_branches (bid int primary key, bbalance int, filler char(88))`;
    await sql`create table pgbench_tellers (tid int primary key, bid int, tbalance int, filler char(84))`;
    await sql`create table pgbench_accounts (aid int primary key, bid int, abalance int, filler char(84))`;
    await sql`create table pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))`;
    await sql`insert into pgbench_branches values (1, 0)`;
    await sql`insert into pgbench_tellers select t, 1, 0 from generate_series(1, 10) t`;
    await sql`insert into pgbench_accounts select a, 1, 0, '' from generate_series(1, 100000) a`;
    await sql`vacuum analyze pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history`;
    const random = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));
    let count = 0;
    const cpu = cpuWindow(postmaster);
    const started = performance.now();
    const stopAt = started + PGBENCH_SECONDS * 1000;
    const deadline = stopAt + DEADLINE_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < stopAt) {
          const aid = random(1, 100000);
          const tid = random(1, 10);
          const delta = random(-5000, 5000);
          await Promise.race([
            sql.begin(async (tx) => {
              await tx`update pgbench_accounts set abalance = abalance + ${delta} where aid = ${aid}`;
              await tx`select abalance from pgbench_accounts where aid = ${aid}`;
              await tx`insert into pgbench_history (tid, bid, aid, delta, mtime) values (${tid}, 1, ${aid}, ${delta}, current_timestamp)`;
            }),
            new Promise((_, reject) =>
              setTimeout(
                () => reject(new BenchFailure(`the pgbench -N mix: a transaction did not commit before the deadline, after ${count}`)),
                Math.max(1, deadline - performance.now()),
              ).unref(),
            ),
          ]);
          count++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      tps: count / seconds,
      label: `${why}: its -N statement mix through postgres.js, ${CLIENTS} connections, ${PGBENCH_SECONDS} s`,
      name: "pgbench -N's mix through postgres.js",
      transactions: count,
      cpu: cpu.end(),
      seconds,
    };
  } finally {
    await dropPgbenchTables(sql).catch(() => {});
    await sql.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------------------
// Mutations over keep-alive HTTP or graphql-ws

/** One keep-alive socket per client, reused by every request (Node's fetch would hide how connections are kept). */
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

/** Sends one GraphQL request; resolves with `data`, throws the response's errors (or a timeout) with `what` it was. */
type Send = <T>(what: string, query: string, variables: Record<string, unknown>, timeoutMs: number) => Promise<T>;

/** A client's connection over `transport`: over HTTP, the clients' keep-alive sockets; over graphql-ws, a socket of its own. */
function connectClient(url: URL, transport: Transport): { send: Send; close: () => Promise<void> } {
  if (transport === "HTTP")
    return {
      send: (what, query, variables, timeoutMs) => postGraphql(url, agent, what, query, variables, timeoutMs),
      close: async () => {},
    };
  const ws = new WsApi(url.toString());
  return { send: (what, query, variables, timeoutMs) => ws.request(what, query, variables, timeoutMs), close: () => ws.close() };
}

const ADD_UNIT = `mutation ($input: AddUnitInput!) { addUnit(input: $input) { name life } }`;
const REMOVE_UNIT = `mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { id outcome } }`;
const SET_UNIT_DEAD = `mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { name life } }`;
const REMOVE_DEAD_UNIT = `mutation ($input: UnitTargetInput!) { removeDeadUnit(input: $input) }`;
const SET_CONSTRAINTS = `mutation ($input: SetConstraintsInput!) { setConstraints(input: $input) { text } }`;

const OPERATIONS = ["addUnit", "removeUnit", "setUnitDead", "removeDeadUnit"] as const;
type Operation = (typeof OPERATIONS)[number];

/** One client's share of a throughput run: an application, and the provisioned machine its units go on. */
interface Lane {
  client: number;
  model: string;
  application: string;
  machine: string;
  send: Send;
}

/** A client's progress, for the report when a run stops short. */
interface ClientState {
  lane: Lane;
  cycles: number;
  /** The step under way, or the last one done. */
  step: string;
  error: string | null;
}

/** What a cycle's step must answer, else the run stops: a unit removed at once would skip the rest of the cycle. */
function must(what: string, ok: boolean, got: unknown): void {
  if (!ok) throw new Error(`${what}: unexpected answer ${JSON.stringify(got)}`);
}

/** One cycle: addUnit → removeUnit (Dying) → setUnitDead → removeDeadUnit, each timed into `timings`. */
async function cycle(lane: Lane, state: ClientState, deadline: number, timings: Map<Operation, number[]> | null) {
  const { model, application, machine, send } = lane;
  const step = async <T>(op: Operation, unit: string, query: string, input: Record<string, unknown>): Promise<T> => {
    state.step = `${op} of ${unit}`;
    const left = deadline - performance.now();
    if (left <= 0) throw new ApiTimeout(0, `${op} of ${unit}`);
    const started = performance.now();
    const data = await send<T>(`${op} of ${unit} in ${model}`, query, { input: { model, ...input } }, left);
    timings?.get(op)?.push(performance.now() - started);
    return data;
  };
  const { addUnit } = await step<{ addUnit: { name: string; life: string }[] }>("addUnit", `a unit of ${application}`, ADD_UNIT, {
    application,
    count: 1,
    placement: [machine],
  });
  must(`addUnit of ${application}`, addUnit.length === 1 && addUnit[0]!.life === "ALIVE", addUnit);
  const unit = addUnit[0]!.name;
  const { removeUnit } = await step<{ removeUnit: { id: string; outcome: string }[] }>("removeUnit", unit, REMOVE_UNIT, { units: [unit] });
  must(`removeUnit of ${unit} (must go Dying, its machine being provisioned)`, removeUnit[0]?.outcome === "DYING", removeUnit);
  const { setUnitDead } = await step<{ setUnitDead: { life: string } }>("setUnitDead", unit, SET_UNIT_DEAD, { unit });
  must(`setUnitDead of ${unit}`, setUnitDead.life === "DEAD", setUnitDead);
  const { removeDeadUnit } = await step<{ removeDeadUnit: boolean }>("removeDeadUnit", unit, REMOVE_DEAD_UNIT, { unit });
  must(`removeDeadUnit of ${unit}`, removeDeadUnit === true, removeDeadUnit);
  state.cycles++;
  state.step = "between cycles";
}

/** What each client had done and was doing when a run stopped short. */
function describeClients(label: string, states: ClientState[], stopAt: number): string {
  const lines = states.map((s) => {
    const where = `client ${s.lane.client} (model ${s.lane.model}, application ${s.lane.application}, machine ${s.lane.machine})`;
    return `  ${where}: ${s.cycles} cycles done; ${s.error ? `failed: ${s.error}` : `stopped at ${s.step}`}`;
  });
  const left = Math.max(0, (stopAt - performance.now()) / 1000);
  return `${label}: stopped short${left > 0 ? ` with ${left.toFixed(1)} s of its window left` : ""}:\n${lines.join("\n")}`;
}

/** One client's sequential setConstraints over a transport, each timed (ms). */
interface Latency {
  transport: Transport;
  samples: number[];
}

interface ThroughputRun {
  /** The mode and the transport. */
  label: string;
  cycles: number;
  mutations: number;
  seconds: number;
  timings: Map<Operation, number[]>;
  cpuSeconds: number;
  peakRssMiB: number;
  /** This process's CPU seconds over the run: the clients share the machine's cores with the server. */
  clientCpuSeconds: number;
  /** The machine's and PostgreSQL's CPU over the run. */
  cpu: CpuShares;
  leftBehind: string;
}

// ---------------------------------------------------------------------------
// The runs

class Bench {
  private readonly url: URL;

  constructor(
    private readonly api: Api,
    server: LifelineProcess,
    private readonly sampler: ProcessSampler,
    private readonly postmaster: number | null,
  ) {
    this.url = new URL(server.url);
  }

  /** A setup call within the setup deadline; past it, the run stops saying what was being set up. */
  private async setup<T>(deadline: number, what: string, query: string, variables: Record<string, unknown>): Promise<T> {
    const left = deadline - performance.now();
    if (left <= 0) throw new BenchFailure(`setup: DEADLINE (${DEADLINE_MS / 1000} s) passed before ${what}`);
    try {
      return await this.api<T>(query, variables, left);
    } catch (error) {
      if (error instanceof ApiTimeout) throw new BenchFailure(`setup: DEADLINE (${DEADLINE_MS / 1000} s) passed during ${what}`);
      throw new BenchFailure(`setup: ${what}: ${error instanceof Error ? error.message : error}`);
    }
  }

  /** The lanes' models and applications, each lane's machine added and provisioned (as the provisioner would). */
  async prepare(lanes: Lane[]): Promise<void> {
    const deadline = performance.now() + DEADLINE_MS;
    for (const model of new Set(lanes.map((l) => l.model)))
      await this.setup(deadline, `addModel ${model}`, `mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, {
        name: model,
      });
    for (const lane of lanes) {
      const { model, application } = lane;
      await this.setup(
        deadline,
        `deploy ${application} in ${model}`,
        `mutation ($input: DeployInput!) { deploy(input: $input) { name } }`,
        {
          input: { model, charm: CHARM, application, numUnits: 0 },
        },
      );
      const { addMachine } = await this.setup<{ addMachine: { id: string } }>(
        deadline,
        `addMachine in ${model}`,
        `mutation ($input: AddMachineInput!) { addMachine(input: $input) { id } }`,
        { input: { model } },
      );
      lane.machine = addMachine.id;
      await this.setup(
        deadline,
        `setMachineProvisioned ${addMachine.id} in ${model}`,
        `mutation ($input: ProvisionedInput!) { setMachineProvisioned(input: $input) { id } }`,
        { input: { model, machine: addMachine.id, instanceId: `i-bench-writes-${model}-${addMachine.id}` } },
      );
    }
  }

  /** Runs the clients' cycles until `stopAt` (each finishes the cycle it is in), within `deadline`; throws what was left on an error. */
  private async drive(
    label: string,
    lanes: Lane[],
    until: { stopAt?: number; cycles?: number },
    deadline: number,
    timings: Map<Operation, number[]> | null,
  ) {
    const states: ClientState[] = lanes.map((lane) => ({ lane, cycles: 0, step: "not started", error: null }));
    let stopped = false;
    await Promise.all(
      states.map(async (state) => {
        try {
          while (
            !stopped &&
            (until.stopAt === undefined || performance.now() < until.stopAt) &&
            (until.cycles === undefined || state.cycles < until.cycles)
          )
            await cycle(state.lane, state, deadline, timings);
        } catch (error) {
          stopped = true;
          state.error =
            error instanceof ApiTimeout
              ? `${state.step}: no answer before the deadline (BENCH_DEADLINE_S, ${DEADLINE_MS / 1000} s)`
              : String(error instanceof Error ? error.message : error);
        }
      }),
    );
    if (stopped) throw new BenchFailure(describeClients(label, states, until.stopAt ?? 0));
    return states.reduce((sum, s) => sum + s.cycles, 0);
  }

  /** The clients' cycles over `transport` for BENCH_WRITE_SECONDS, after a warm-up; each lane is a client. */
  async throughput(mode: string, transport: Transport, lanes: Lane[]): Promise<ThroughputRun> {
    const label = `${mode}, ${transport}`;
    const clients = lanes.map((lane) => {
      const client = connectClient(this.url, transport);
      lane.send = client.send;
      return client;
    });
    try {
      return await this.throughputOf(label, lanes);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }

  private async throughputOf(label: string, lanes: Lane[]): Promise<ThroughputRun> {
    await this.prepare(lanes);
    if (WARMUP_CYCLES > 0) await this.drive(`${label} (warm-up)`, lanes, { cycles: WARMUP_CYCLES }, performance.now() + DEADLINE_MS, null);
    const timings = new Map<Operation, number[]>(OPERATIONS.map((op) => [op, []]));
    const measuring = this.sampler.phase();
    const shares = cpuWindow(this.postmaster);
    const clientCpu = process.cpuUsage();
    const started = performance.now();
    const window = monotonicMicros();
    const stopAt = started + WRITE_SECONDS * 1000;
    const cycles = await this.drive(label, lanes, { stopAt }, stopAt + DEADLINE_MS, timings);
    const seconds = (performance.now() - started) / 1000;
    const figures = measuring.end();
    const cpu = shares.end();
    const { user, system } = process.cpuUsage(clientCpu);
    const mutations = [...timings.values()].reduce((sum, list) => sum + list.length, 0);
    log(`${label}: ${n0(cycles)} cycles, ${n0(mutations)} mutations in ${seconds.toFixed(1)} s${profileWindow(window)}`);
    return {
      label,
      cycles,
      mutations,
      seconds,
      timings,
      ...figures,
      clientCpuSeconds: (user + system) / 1e6,
      cpu,
      leftBehind: await this.leftBehind(lanes),
    };
  }

  /** Units of the lanes' applications still there after their cycles (there should be none). */
  private async leftBehind(lanes: Lane[]): Promise<string> {
    const deadline = performance.now() + DEADLINE_MS;
    const left: string[] = [];
    for (const model of new Set(lanes.map((l) => l.model))) {
      const { model: m } = await this.setup<{ model: { units: { edges: { node: { name: string; life: string } }[] } } }>(
        deadline,
        `listing the units of ${model}`,
        `query ($model: String!) { model(name: $model) { units(first: 100) { edges { node { name life } } } } }`,
        { model },
      );
      left.push(...m.units.edges.map((e) => `${e.node.name} (${e.node.life})`));
    }
    return left.length ? `${left.length} units: ${left.slice(0, 5).join(", ")}` : "nothing";
  }

  /** One client, one setConstraints on an application at a time, over `transport`. */
  async latency(transport: Transport): Promise<Latency> {
    const client = connectClient(this.url, transport);
    try {
      return { transport, samples: await this.latencyOf(client.send, `writes-latency-${transport.toLowerCase()}`) };
    } finally {
      await client.close();
    }
  }

  private async latencyOf(send: Send, model: string): Promise<number[]> {
    const lane: Lane = { client: 0, model, application: CHARM, machine: "", send };
    await this.prepare([lane]);
    const deadline = performance.now() + DEADLINE_MS;
    const warmup = WARMUP_CYCLES * 10;
    const samples: number[] = [];
    for (let i = 0; i < warmup + LATENCY_COUNT; i++) {
      const left = deadline - performance.now();
      const done =
        i < warmup
          ? `${i} of ${warmup} untimed setConstraints done, none of the ${LATENCY_COUNT} timed`
          : `${i - warmup} of ${LATENCY_COUNT} timed setConstraints done`;
      if (left <= 0) throw new BenchFailure(`latency: DEADLINE (${DEADLINE_MS / 1000} s) passed; ${done}`);
      const started = performance.now();
      try {
        await send(
          `setConstraints of ${lane.application} in ${lane.model}`,
          SET_CONSTRAINTS,
          { input: { model: lane.model, application: lane.application, constraints: `cores=${i + 1}` } },
          left,
        );
      } catch (error) {
        throw new BenchFailure(
          `latency: ${error instanceof ApiTimeout ? `DEADLINE (${DEADLINE_MS / 1000} s) passed` : error instanceof Error ? error.message : error}; ${done}`,
        );
      }
      if (i >= warmup) samples.push(performance.now() - started);
    }
    return samples;
  }
}

// ---------------------------------------------------------------------------
// The report

const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
const met = (ok: boolean) => (ok ? "yes" : "no");

function report(
  startLoad: string,
  pgbench: PgbenchFigures,
  insert: { p50: number; p99: number },
  latencies: Latency[],
  runs: ThroughputRun[],
  peakRssMiB: number,
  trouble: { count: number; samples: string[] },
) {
  console.log("");
  console.log(machineLine(startLoad));
  console.log(
    `raw PostgreSQL, same run: ${n0(pgbench.tps)} tps (${pgbench.label}); single-row autocommit insert p50 ${ms(insert.p50)}, p99 ${ms(insert.p99)} (one connection)`,
  );
  console.log(
    `Lifeline: the server as npm start runs it, its own process, agents off (LIFELINE_AGENTS=0); ${CLIENTS} clients, ` +
      `each on a socket of its own (${TRANSPORTS.map((t) => (t === "HTTP" ? "keep-alive HTTP" : "graphql-ws, as the agents")).join("; then ")}); ` +
      `cycle: addUnit (count 1, on a provisioned machine) → removeUnit (Dying) → setUnitDead → removeDeadUnit; ${WRITE_SECONDS} s a mode`,
  );
  console.log("");
  const header = ["figure", "Lifeline", "raw PostgreSQL", "ratio", "issue's target", "met"];
  printHeader(header);
  for (const run of runs) {
    const tps = run.mutations / run.seconds;
    printRow([
      `throughput, ${run.label}`,
      `${n0(tps)} mutations/s`,
      `${n0(pgbench.tps)} tps`,
      ratio(tps / pgbench.tps),
      `≥ ${TARGET_THROUGHPUT}×`,
      met(tps / pgbench.tps >= TARGET_THROUGHPUT),
    ]);
  }
  for (const { transport, samples } of latencies) {
    const lat = sorted(samples);
    const [p50, p90, p99] = [50, 90, 99].map((p) => percentile(lat, p)) as [number, number, number];
    printRow([
      `latency p50, setConstraints, one client, ${transport} (${n0(lat.length)})`,
      ms(p50),
      `${ms(insert.p50)} (insert p50)`,
      ratio(p50 / insert.p50),
      `≤ ${TARGET_LATENCY}×`,
      met(p50 / insert.p50 <= TARGET_LATENCY),
    ]);
    printRow([`latency p90, ${transport}`, ms(p90), "", ratio(p90 / insert.p50), "", ""]);
    printRow([`latency p99, ${transport}`, ms(p99), `${ms(insert.p99)} (insert p99)`, ratio(p99 / insert.p99), "", ""]);
  }
  for (const run of runs) {
    const cpuMs = (run.cpuSeconds * 1000) / run.mutations;
    printRow([`server CPU, ${run.label}`, `${cpuMs.toFixed(2)} ms/mutation`, "", "", `≤ ${TARGET_CPU_MS} ms`, met(cpuMs <= TARGET_CPU_MS)]);
  }
  printRow(["server peak RSS", `${n0(peakRssMiB)} MiB`, "", "", "", ""]);
  console.log("");
  const perOp = [
    "mode",
    "cycles",
    "mutations",
    "mutations/s",
    ...OPERATIONS.map((op) => `${op} p50`),
    "all p99",
    "server CPU/mutation",
    "clients' CPU/mutation",
    "peak RSS",
    "left behind",
  ];
  printHeader(perOp);
  for (const run of runs) {
    const all = sorted([...run.timings.values()].flat());
    printRow([
      run.label,
      n0(run.cycles),
      n0(run.mutations),
      rate(run.mutations / run.seconds),
      ...OPERATIONS.map((op) => {
        const p = percentile(sorted(run.timings.get(op)!), 50);
        return `${ms(p)} (${ratio(p / insert.p50)})`;
      }),
      ms(percentile(all, 99)),
      `${((run.cpuSeconds * 1000) / run.mutations).toFixed(2)} ms`,
      `${((run.clientCpuSeconds * 1000) / run.mutations).toFixed(2)} ms`,
      `${n0(run.peakRssMiB)} MiB`,
      run.leftBehind,
    ]);
  }
  console.log("(per-operation p50: under load, with the ratio to the raw insert p50 in brackets)");
  console.log("");
  cpuReport(pgbench, runs);
  console.log("");
  console.log(
    `server: peak RSS since start ${n0(peakRssMiB)} MiB; ${trouble.count} log lines that look like trouble${trouble.count ? `, the first: ${trouble.samples.slice(0, 3).join(" | ")}` : ""}`,
  );
}

/**
 * Where the CPU of a write goes, pgbench's and Lifeline's, over the same windows: when the machine's cores are
 * all busy, throughput is the cores' time over the CPU a write takes, so the ratio of the two CPU figures is the
 * ceiling of the throughput ratio, and a target ratio is a CPU budget a write.
 */
function cpuReport(pgbench: PgbenchFigures, runs: ThroughputRun[]) {
  const cores = machineCores();
  const perWrite = (seconds: number, writes: number) => (seconds * 1000) / writes;
  const msCell = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : "n/a");
  const pgbenchMachine = perWrite(pgbench.cpu.machine, pgbench.transactions);
  printHeader(["CPU a write, same run", "writes/s", "machine busy", "PostgreSQL", "server", "clients", "the rest", "machine", "ratio"]);
  const pgbenchPostgres = perWrite(pgbench.cpu.postgres, pgbench.transactions);
  printRow([
    `raw: ${pgbench.name}, a transaction`,
    rate(pgbench.transactions / pgbench.seconds),
    busyShare(pgbench.cpu.machine, pgbench.seconds),
    msCell(pgbenchPostgres),
    "",
    "",
    msCell(pgbenchMachine - pgbenchPostgres),
    msCell(pgbenchMachine),
    "1×",
  ]);
  for (const run of runs) {
    const [machine, pg, server, clients] = [run.cpu.machine, run.cpu.postgres, run.cpuSeconds, run.clientCpuSeconds].map((cpu) =>
      perWrite(cpu, run.mutations),
    ) as [number, number, number, number];
    printRow([
      `Lifeline, ${run.label}, a mutation`,
      rate(run.mutations / run.seconds),
      busyShare(run.cpu.machine, run.seconds),
      msCell(pg),
      msCell(server),
      msCell(clients),
      msCell(machine - pg - server - clients),
      msCell(machine),
      ratio(machine / pgbenchMachine),
    ]);
  }
  const budget = (cores * 1000) / (TARGET_THROUGHPUT * pgbench.tps);
  console.log(
    `(the machine's CPU: its ${cores} cores' busy time over the window; "the rest": the kernel's work outside the processes' own time, ` +
      `pgbench's client, anything else running. At ${TARGET_THROUGHPUT}× pgbench, ${n0(TARGET_THROUGHPUT * pgbench.tps)} mutations/s, ` +
      `${cores} cores leave at most ${msCell(budget)} of CPU a mutation for PostgreSQL, the server and the clients together)`,
  );
}

async function main() {
  const startLoad = loadAverages();
  const database = await createBenchDatabase("writes");
  const { name: dbName, url: dbUrl } = database;
  const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  let server: LifelineProcess | null = null;
  let sampler: ProcessSampler | null = null;
  try {
    // The raw reference first, with nothing else of this run on the machine.
    const postmaster = await localPostmaster(sql);
    const raw = await measureRawInserts(dbUrl.toString(), 1, 0); // its latency part only: no rate phase
    log(`raw PostgreSQL: single-row insert p50 ${ms(raw.insertLatency.p50)}, p99 ${ms(raw.insertLatency.p99)}`);
    const pgbenchBin = PGBENCH === "none" ? null : executable(PGBENCH);
    const pgbench = pgbenchBin
      ? await runPgbench(pgbenchBin, dbUrl, sql, postmaster)
      : await runPgbenchMix(dbUrl, PGBENCH === "none" ? "pgbench not used (BENCH_PGBENCH=none)" : `${PGBENCH} not found`, postmaster);
    log(`raw PostgreSQL: ${n0(pgbench.tps)} tps (${pgbench.label})`);

    server = await startLifeline({ DATABASE_URL: dbUrl.toString(), LIFELINE_AGENTS: "0" }, serverNodeFlags());
    sampler = new ProcessSampler(server.pid);
    log(`server (agents off) at ${server.url}, pid ${server.pid}, database ${dbName}`);
    const bench = new Bench(apiAt(server.url), server, sampler, postmaster);

    const latencies: Latency[] = [];
    for (const transport of TRANSPORTS) {
      const window = monotonicMicros();
      latencies.push(await bench.latency(transport));
      log(`latency over ${transport}: ${LATENCY_COUNT} setConstraints timed${profileWindow(window)}`);
    }
    const lanes = (model: (client: number) => string, application: (client: number) => string): Lane[] =>
      Array.from({ length: CLIENTS }, (_, client) => ({
        client,
        model: model(client),
        application: application(client),
        machine: "",
        send: () => Promise.reject(new Error("no transport yet")),
      }));
    const runs: ThroughputRun[] = [];
    // Each run has models of its own (a fresh start, as the first transport's had).
    for (const transport of TRANSPORTS) {
      const tag = transport === "HTTP" ? "http" : "ws";
      runs.push(
        await bench.throughput(
          `${CLIENTS} models`,
          transport,
          lanes(
            (c) => `writes-${tag}-models-${c}`,
            () => CHARM,
          ),
        ),
        await bench.throughput(
          "1 model",
          transport,
          lanes(
            () => `writes-${tag}-one-model`,
            // Names may not end in a digit-only segment: memcached-a … memcached-h.
            (c) => `${CHARM}-${String.fromCharCode(97 + c)}`,
          ),
        ),
      );
    }
    report(startLoad, pgbench, raw.insertLatency, latencies, runs, sampler.highWaterMiB(), server.trouble());
  } finally {
    sampler?.close();
    agent.destroy();
    await server?.stop();
    await sql.end({ timeout: 5 });
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    if (error instanceof BenchFailure) console.error(`bench failed: ${error.message}`);
    else console.error("bench failed:", error);
    process.exit(1);
  },
);
