// `npm run bench:agents`: the agents at scale. For each N (BENCH_AGENT_UNITS,
// default "100,1000"), in a model of its own: an application of N units, each on
// its own machine, related to another application of one unit; the time until
// everything settles (every agent idle, every unit in the relation's scope, each
// join's hooks run on both sides); then removeApplication and the time until
// nothing of it is left (no units, the relation gone); then the machines removed,
// timed apart. Per N: those times, their cost per unit (so a quadratic step shows
// as a growing ms/unit), write transactions per unit, and the server's CPU and
// peak memory; and each phase's chain, when the units reached each step of it
// (milestones.ts), which says where a phase waits. The scale runs use a charm
// with no hooks, so the figures measure Lifeline's per-unit cost rather than
// shell processes; one smaller run
// (BENCH_HOOK_UNITS, default 20) uses the bundled wordpress and mysql charms with
// their real hooks, labelled as such.
//
// Like `npm run bench`, it needs PostgreSQL on a loopback address
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres),
// creates a database of its own there and drops it at the end, runs the server as
// `npm start` does (its own process, with its agents, on that database), and
// measures this machine's raw PostgreSQL single-row insert rate in the same run,
// reporting ratios to it. BENCH_STORE=pglite runs the server on npm start's default
// store instead, an embedded PGlite (agents-store.ts): its addUnit takes 10 units a
// call there, and the yardstick is a raw PGlite insert. Every wait has a deadline (BENCH_PHASE_DEADLINE_S, by
// default 120 s + 1 s a unit); a phase that hits it prints what was still left
// and the run exits 1 after its table.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStoreUnderTest, type StoreUnderTest } from "./agents-store.js";
import { type Api, ApiTimeout, apiAt } from "./api.js";
import { describeMachinesLeft, describeUnitsLeft } from "./leftovers.js";
import { type LifelineProcess, serverNodeFlags, startLifeline } from "./lifeline-process.js";
import { busyShare, type CpuShares, cpuWindow, machineCores } from "./machine-cpu.js";
import { Milestones } from "./milestones.js";
import { ModelWatch } from "./model-watch.js";
import { type PhaseFigures, ProcessSampler } from "./process-sampler.js";
import { PATHS, profilesOf, splitProfile } from "./profile-split.js";
import { type CountedSince, countedSince, serverCounts } from "./server-counts.js";
import { confirmSettled, machinesGap, removalGap, settleGap } from "./settled.js";
import { loadAverages, machineLine, printHeader, printRow, rate, ratio } from "./stats.js";

const sizes = (process.env.BENCH_AGENT_UNITS ?? "100,1000").split(",").filter(Boolean).map(Number);
const HOOK_UNITS = Number(process.env.BENCH_HOOK_UNITS ?? 20);
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 3);
/** Seconds the settled deployment is left alone before its removal, its RSS sampled: does it stay where it settled? */
const HOLD_SECONDS = Number(process.env.BENCH_SETTLED_HOLD_S ?? 20);
const deadlineMs = (units: number) => (Number(process.env.BENCH_PHASE_DEADLINE_S) || 120 + units) * 1000;
/** The issue's target: 10,000 units settled, and removed, in under 60 s each way. */
const TARGET_MS_PER_UNIT = 60_000 / 10_000;

if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(HOOK_UNITS) || HOOK_UNITS < 0) {
  console.error("bench: BENCH_AGENT_UNITS is a comma-separated list of unit counts (at least 1), BENCH_HOOK_UNITS a count (0: no run)");
  process.exit(2);
}

/** A charm with one provides and one requires endpoint and no hooks: its agents do only Lifeline's work. */
const HOOKLESS = `name: scale
summary: A charm with no hooks, for the agents' scale benchmark
description: Its units enter scopes and run every hook in Juju's order, each one absent, so only Lifeline's own work is measured.
provides:
  server:
    interface: scale
requires:
  client:
    interface: scale
`;

interface Scenario {
  label: string;
  units: number;
  model: string;
  /** addCharm's metadata, when the charm is not a bundled one. */
  metadata?: string;
  charm: { big: string; small: string };
  big: string;
  small: string;
  endpoints: [string, string];
}

interface Phase {
  /** Seconds, or null when the deadline passed. */
  seconds: number | null;
  figures: PhaseFigures;
  /** The machine's and PostgreSQL's CPU over the phase. */
  cpu: CpuShares;
  /** Wall-clock seconds the phase ran, deadline or not. */
  elapsed: number;
  /** Write transactions and change rows committed in the model during the phase (null where the store is not read). */
  writes: { transactions: number; rows: number } | null;
  /** What the server counted during the phase: its mutations by root field (a bulk call counts once), its streams' deliveries. */
  counted: CountedSince;
  /** performance.now() at its start and end. */
  window: { start: number; end: number };
  /** The monotonic clock's microseconds at its start and end: a CPU profile's timestamps (BENCH_PROFILE). */
  monotonicUs: { start: number; end: number };
}

interface Outcome {
  scenario: Scenario;
  addSeconds: number;
  settle: Phase;
  /** The server left alone once settled, for HOLD_SECONDS. */
  held: PhaseFigures;
  removal: Phase;
  machines: Phase;
  leftBehind: string;
  /** When each unit of the big application reached each step. */
  milestones: Milestones;
}

const log = (line: string) => console.log(`bench: ${line}`);
const n0 = (value: number) => Math.round(value).toLocaleString("en-US");
const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs));

/**
 * Sends `count` items in calls of at most `batch`, each call answered before the deadline; null once all
 * are sent, else how far it got ("3,000 of 10,000 <what>"), and why it stopped.
 */
async function inBatches(
  batch: number,
  count: number,
  deadline: number,
  what: string,
  send: (from: number, size: number, timeoutMs: number) => Promise<unknown>,
): Promise<string | null> {
  for (let done = 0; done < count; done += batch) {
    const left = deadline - performance.now();
    const progress = `${n0(done)} of ${n0(count)} ${what}`;
    if (left <= 0) return `${progress} when the deadline passed`;
    try {
      await send(done, Math.min(batch, count - done), left);
    } catch (error) {
      if (error instanceof ApiTimeout) return `${progress}; the next call got no answer before the deadline`;
      throw error;
    }
  }
  return null;
}

class Bench {
  private deadlinesHit = 0;

  constructor(
    private readonly api: Api,
    private readonly store: StoreUnderTest,
    private readonly server: LifelineProcess,
    private readonly sampler: ProcessSampler,
  ) {}

  get failed() {
    return this.deadlinesHit > 0;
  }

  /** A timed phase: `act`, then `wait` until done, both within its deadline; the server's CPU, memory and the model's writes meanwhile. */
  private async phase(
    name: string,
    s: Scenario,
    /** The phase's mutations, within the deadline: null once all are sent, else what was left unsent. */
    act: (deadline: number) => Promise<string | null>,
    wait: (deadline: number) => Promise<{ at: number } | { missing: string }>,
    onDeadline: () => Promise<string[]>,
  ): Promise<Phase> {
    const writesCounted = await this.store.countWrites(s.model);
    const countedBefore = await serverCounts(this.server.url);
    const measuring = this.sampler.phase();
    const shares = cpuWindow(this.store.postmaster);
    const started = performance.now();
    const startedUs = monotonicUs();
    const deadline = started + deadlineMs(s.units);
    const unsent = await act(deadline);
    const result = unsent === null ? await wait(deadline) : { missing: unsent };
    const figures = measuring.end();
    const cpu = shares.end();
    const ended = performance.now();
    const elapsed = (ended - started) / 1000;
    const window = { start: started, end: ended };
    const monotonic = { start: startedUs, end: monotonicUs() };
    const writes = await writesCounted.end();
    const counted = countedSince(countedBefore, await serverCounts(this.server.url));
    if ("missing" in result) {
      this.deadlinesHit++;
      log(`${s.label}: ${name}: DEADLINE (${deadlineMs(s.units) / 1000} s) passed; still left: ${result.missing}`);
      for (const line of await onDeadline().catch((e) => [`(could not say more: ${String(e)})`])) log(`  ${line}`);
      const trouble = this.server.trouble();
      log(
        `  the server logged ${trouble.count} lines that look like trouble; the first: ${trouble.samples.slice(0, 5).join(" | ") || "none"}`,
      );
      return { seconds: null, figures, cpu, elapsed, writes, counted, window, monotonicUs: monotonic };
    }
    const seconds = (result.at - started) / 1000;
    log(`${s.label}: ${name} in ${seconds.toFixed(1)} s`);
    return { seconds, figures, cpu, elapsed, writes, counted, window, monotonicUs: monotonic };
  }

  async run(s: Scenario): Promise<Outcome> {
    const { api } = this;
    await api(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: s.model });
    const watch = await ModelWatch.open(this.server.url, s.model);
    const milestones = new Milestones(watch, s.big);
    try {
      // The controller starts a new model's agents within its poll (2 s): machine 0's agent reports `started` first.
      const ready = await watch.until(
        () => (watch.get("MACHINE", "0")?.info.status?.current === "started" ? null : "machine 0's agent has not started"),
        performance.now() + 60_000,
      );
      if ("missing" in ready) throw new Error(`${s.model}: ${ready.missing}`);

      const charm = s.metadata
        ? (
            await api<{ addCharm: { url: string } }>(`mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`, {
              input: { model: s.model, metadata: s.metadata },
            })
          ).addCharm.url
        : null;
      const deploy = (application: string, bundled: string) =>
        api(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, {
          input: { model: s.model, charm: charm ?? bundled, application, numUnits: 0 },
        });
      await deploy(s.big, s.charm.big);
      await deploy(s.small, s.charm.small);
      const relationId = (
        await api<{ integrate: { id: number } }>(`mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`, {
          input: { model: s.model, endpoints: s.endpoints },
        })
      ).integrate.id;
      /** addUnit in batches until `count` are added or the deadline passes; null when all were, else how many were. */
      const addUnits = (application: string, count: number, deadline: number) =>
        inBatches(this.store.batch, count, deadline, `${application} units added`, (_from, size, timeoutMs) =>
          api(
            `mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`,
            { input: { model: s.model, application, count: size } },
            timeoutMs,
          ),
        );

      let addSeconds = 0;
      const settle = await this.phase(
        "settled",
        s,
        async (deadline) => {
          const started = performance.now();
          const unsent = (await addUnits(s.small, 1, deadline)) ?? (await addUnits(s.big, s.units, deadline));
          addSeconds = (performance.now() - started) / 1000;
          if (unsent === null) log(`${s.label}: ${s.units + 1} units added in ${addSeconds.toFixed(1)} s`);
          return unsent;
        },
        async (deadline) => {
          for (;;) {
            const seen = await watch.until((full) => settleGap(watch, s.units + 1, full), deadline);
            if ("missing" in seen) return seen;
            // The stream says settled; each agent's progress on the server must say it has nothing left to run. It did
            // by the time the confirming read began: an agent's last save of its progress (past hooks its charm does not
            // ship) need not come with an event, so that is when the deployment settled, not the stream's last event.
            const before = watch.changes;
            const asked = performance.now();
            const gap = await confirmSettled(api, s.model, watch);
            if (gap === null) return { at: Math.max(asked, watch.lastChangeAt) };
            if (performance.now() > deadline) return { missing: `agents' progress: ${gap}` };
            // Asked again once the stream moves, or after a second: an agent's last save of its progress need not
            // come with a change the stream shows.
            const again = performance.now() + 1000;
            await watch.until(() => (watch.changes > before || performance.now() > again ? null : `agents' progress: ${gap}`), deadline);
          }
        },
        async () => [
          ...watch
            .all("UNIT")
            .filter((u) => u.info.agentStatus?.current === "error")
            .slice(0, 5)
            .map((u) => `unit ${u.entity} in error: ${String(u.info.agentStatus?.message)}`),
          ...(await describeUnitsLeft(api, s.model, s.small, relationId)),
        ],
      );

      const holding = this.sampler.phase();
      await sleep(HOLD_SECONDS * 1000);
      const held = holding.end();

      // The machines the big application's units were put on, to remove after it.
      const machines = [
        ...new Set(
          watch
            .all("UNIT")
            .filter((u) => u.info.applicationName === s.big)
            .map((u) => String(u.info.machineId)),
        ),
      ];
      const removal = await this.phase(
        "removed (no units, no relation)",
        s,
        async (deadline) => {
          await api(
            `mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { outcome } }`,
            { input: { model: s.model, applications: [s.big] } },
            deadline - performance.now(),
          );
          return null;
        },
        (deadline) => watch.until((full) => removalGap(watch, s.big, [String(relationId)], full), deadline),
        async () => [...(await describeUnitsLeft(api, s.model, s.big, relationId)), ...(await this.store.cleanups(s.model))],
      );
      const left = await this.store.leftBehind(s.model, s.big, relationId);

      const machineRemoval = await this.phase(
        "machines removed",
        s,
        (deadline) =>
          inBatches(this.store.batch, machines.length, deadline, "machines asked to go", (from, size, timeoutMs) =>
            api(
              `mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { outcome } }`,
              { input: { model: s.model, machines: machines.slice(from, from + size) } },
              timeoutMs,
            ),
          ),
        (deadline) => watch.until(() => machinesGap(watch, machines), deadline),
        async () => [...(await describeMachinesLeft(api, s.model, new Set(machines))), ...(await this.store.cleanups(s.model))],
      );
      return { scenario: s, addSeconds, settle, held, removal, machines: machineRemoval, leftBehind: left, milestones };
    } finally {
      await watch.close();
      await this.destroy(s.model);
    }
  }

  /** Takes the model down (untimed), so the next size runs beside no agents of this one. */
  private async destroy(model: string): Promise<void> {
    await this.api(`mutation ($name: String!) { destroyModel(name: $name) }`, { name: model }).catch((e) =>
      log(`${model}: destroyModel: ${e}`),
    );
    const deadline = performance.now() + 120_000;
    while (performance.now() < deadline) {
      const { model: m } = await this.api<{ model: { life: string } | null }>(`query ($name: String!) { model(name: $name) { life } }`, {
        name: model,
      });
      if (!m || m.life === "DEAD") return;
      await sleep(250);
    }
    log(`${model}: not Dead 120 s after destroyModel; going on`);
  }
}

const seconds = (phase: Phase) => (phase.seconds === null ? "deadline" : `${phase.seconds.toFixed(1)} s`);
const perUnit = (phase: Phase, units: number) => (phase.seconds === null ? "n/a" : `${((phase.seconds * 1000) / units).toFixed(2)}`);

/** An outcome's three timed phases, named as the reports name them. */
const phasesOf = (o: Outcome) =>
  [
    ["settled", o.settle],
    ["removed", o.removal],
    ["machines removed", o.machines],
  ] as const;

/**
 * Where each phase's CPU went, a unit: the server's (API and agents), PostgreSQL's, and the rest of the machine's
 * (this benchmark's own client, the kernel, anything else). With the machine's busy share beside it, this says
 * whether a phase was bound by the cores or by waiting, and what the issue's target leaves a unit.
 */
function cpuReport(outcomes: Outcome[]) {
  const cores = machineCores();
  const cell = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "n/a");
  printHeader(["units", "phase", "machine busy", "server CPU ms/unit", "PostgreSQL ms/unit", "the rest ms/unit", "machine ms/unit"]);
  for (const o of outcomes) {
    const n = o.scenario.units;
    for (const [name, phase] of phasesOf(o)) {
      const [machine, server, pg] = [phase.cpu.machine, phase.figures.cpuSeconds, phase.cpu.postgres].map((cpu) => (cpu * 1000) / n) as [
        number,
        number,
        number,
      ];
      printRow([
        o.scenario.label,
        name,
        busyShare(phase.cpu.machine, phase.elapsed),
        cell(server),
        cell(pg),
        cell(machine - server - pg),
        cell(machine),
      ]);
    }
  }
  console.log(
    `(machine: its ${cores} cores' busy time over the phase. The issue's target, 10,000 units in 60 s a phase, leaves ` +
      `${((cores * 60_000) / 10_000).toFixed(1)} ms of the machine's CPU a unit, with every core busy all the time)`,
  );
}

/** The monotonic clock now, in microseconds: the clock of a CPU profile's timestamps, in any process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Where each phase's CPU went in the server's threads (BENCH_PROFILE: the profiles it wrote when it stopped), a unit, by
 * path (profile-split.ts): the streams, the writes and reads, the requests, the agents, garbage collection.
 */
function profileReport(outcomes: Outcome[], dir: string, pid: number) {
  const threads = [...profilesOf(dir, pid)].sort(([a], [b]) => a - b);
  if (!threads.length) return console.log(`(no CPU profile of process ${pid} in ${dir})`);
  printHeader(["units", "phase", "thread", "busy", "ms/unit", ...PATHS.map((p) => `${p} ms/unit`)]);
  for (const o of outcomes) {
    const n = o.scenario.units;
    for (const [name, phase] of phasesOf(o))
      for (const [id, profile] of threads) {
        const split = splitProfile(profile, phase.monotonicUs.start, phase.monotonicUs.end);
        if (split.busySeconds < 0.05 * phase.elapsed) continue; // a thread idle through the phase
        printRow([
          o.scenario.label,
          name,
          id === 0 ? "main (API)" : split.runsAgents ? `${id} (agents)` : String(id),
          `${Math.round((100 * split.busySeconds) / phase.elapsed)}%`, // of one core
          ((split.busySeconds * 1000) / n).toFixed(2),
          ...PATHS.map((p) => ((split.byPath[p] * 1000) / n).toFixed(2)),
        ]);
      }
  }
  console.log("(from the server's CPU profiles, which slow it: a phase's time in this run is longer than without them)");
}

/**
 * The mutations each phase's agents (and the benchmark) asked for, a unit, by field, with the server's mean time in
 * each: which calls a unit's cost is made of, and which of them went gathered (a bulk field's calls a unit < 1).
 */
function mutationsReport(outcomes: Outcome[]) {
  printHeader(["units", "phase", "mutation", "calls/unit", "mean ms a call", "server ms/unit in it"]);
  for (const o of outcomes) {
    const n = o.scenario.units;
    for (const [name, phase] of phasesOf(o))
      for (const [field, { calls, seconds }] of phase.counted.mutations.filter(([, f]) => f.calls / n >= 0.01))
        printRow([
          o.scenario.label,
          name,
          field,
          (calls / n).toFixed(2),
          ((seconds * 1000) / calls).toFixed(2),
          ((seconds * 1000) / n).toFixed(2),
        ]);
  }
  console.log(
    "(from the server's /metrics: a bulk call counts once; its time is from the request's execution to its answer, waits included)",
  );
  console.log("");
  printHeader(["units", "phase", "stream deliveries/unit", "change rows read/unit"]);
  for (const o of outcomes) {
    const n = o.scenario.units;
    for (const [name, phase] of phasesOf(o))
      printRow([o.scenario.label, name, (phase.counted.deliveries / n).toFixed(1), (phase.counted.eventsRead / n).toFixed(1)]);
  }
  console.log(
    "(deliveries: each subscriber's copy of an event, snapshots and bookmarks included; the benchmark's own model watch is one subscriber)",
  );
}

/** Each phase's chain: when the big application's units reached each step, seconds into the phase. */
function milestonesReport(outcomes: Outcome[]) {
  Milestones.header();
  for (const o of outcomes) for (const [name, phase] of phasesOf(o).slice(0, 2)) o.milestones.print(o.scenario.label, name, phase.window);
  console.log("(from the benchmark's model watch: the first event showing each unit at each step)");
  for (const o of outcomes)
    for (const [name, phase] of phasesOf(o))
      console.log(
        `${o.scenario.label}, ${name}: change events a unit by kind: ${o.milestones.changesByKind(phase.window, o.scenario.units)}`,
      );
}

async function main() {
  const startLoad = loadAverages();
  // The dummy cloud keeps its instances in a file beside the store (and PGlite's data directory is there too); this
  // run's go in a directory of its own.
  const runDir = mkdtempSync(join(tmpdir(), "lifeline-bench-agents-"));
  const store = await openStoreUnderTest(runDir);
  let server: LifelineProcess | null = null;
  let sampler: ProcessSampler | null = null;
  let failed = false;
  try {
    // BENCH_PROFILE=<dir> writes a V8 CPU profile of the server (API and agents) there when it stops; BENCH_NODE_FLAGS.
    server = await startLifeline({ ...store.serverEnv, LIFELINE_CLOUD_FILE: join(runDir, "cloud.json") }, serverNodeFlags());
    sampler = new ProcessSampler(server.pid);
    log(`server (API and agents, one process as with npm start) at ${server.url}, pid ${server.pid}, on ${store.name}`);
    const raw = await store.measureRawInsert(RAW_SECONDS);
    const rawInsertMs = 1000 / raw.rate;
    log(`raw ${store.name}: ${rate(raw.rate)} single-row inserts ${raw.how}`);

    const bench = new Bench(apiAt(server.url), store, server, sampler);
    const scenarios: Scenario[] = [
      ...sizes.map((units) => ({
        label: n0(units),
        units,
        model: `scale-${units}`,
        metadata: HOOKLESS,
        charm: { big: "scale", small: "scale" },
        big: "scale",
        small: "hub",
        endpoints: ["scale:client", "hub:server"] as [string, string],
      })),
      ...(HOOK_UNITS > 0
        ? [
            {
              label: `${n0(HOOK_UNITS)}, real hooks`,
              units: HOOK_UNITS,
              model: `hooks-${HOOK_UNITS}`,
              charm: { big: "wordpress", small: "mysql" },
              big: "wordpress",
              small: "mysql",
              endpoints: ["wordpress:db", "mysql:db"] as [string, string],
            },
          ]
        : []),
    ];
    const outcomes: Outcome[] = [];
    for (const scenario of scenarios) {
      log(
        `${scenario.label}: deploying ${scenario.units} units of ${scenario.big}, related to ${scenario.small}, in model ${scenario.model}`,
      );
      outcomes.push(await bench.run(scenario));
    }
    failed = bench.failed;

    console.log("");
    console.log(machineLine(startLoad));
    console.log(
      `raw ${store.name}, same run: ${rate(raw.rate)} single-row inserts ${raw.how} (${rawInsertMs.toFixed(3)} ms each); ` +
        `the issue's target, 10,000 units in 60 s each way, is ${TARGET_MS_PER_UNIT.toFixed(2)} ms/unit = ${ratio(TARGET_MS_PER_UNIT / rawInsertMs)} that`,
    );
    console.log(
      "hook-less charm unless labelled; server = API and agents in one process (as npm start runs them); CPU and RSS are the server's; " +
        "writes = write transactions (and change rows) in the model's log per unit",
    );
    console.log("");
    const header = [
      "units",
      "addUnit calls",
      "settled",
      "ms/unit",
      "÷ raw insert",
      "server CPU ms/unit",
      "writes/unit",
      "removed",
      "ms/unit",
      "÷ raw insert",
      "server CPU ms/unit",
      "writes/unit",
      "machines removed",
      "ms/unit",
      "peak RSS settling",
      "RSS settled",
      `peak RSS held ${HOLD_SECONDS} s`,
      "peak RSS removing",
      "left behind",
    ];
    printHeader(header);
    for (const o of outcomes) {
      const n = o.scenario.units;
      const cost = (phase: Phase) => [
        seconds(phase),
        perUnit(phase, n),
        phase.seconds === null ? "n/a" : ratio((phase.seconds * 1000) / n / rawInsertMs),
        ((phase.figures.cpuSeconds * 1000) / n).toFixed(2),
        phase.writes ? `${(phase.writes.transactions / n).toFixed(1)} (${(phase.writes.rows / n).toFixed(1)} rows)` : "n/a",
      ];
      printRow([
        o.scenario.label,
        `${o.addSeconds.toFixed(1)} s`,
        ...cost(o.settle),
        ...cost(o.removal),
        seconds(o.machines),
        perUnit(o.machines, n),
        `${n0(o.settle.figures.peakRssMiB)} MiB`,
        `${n0(o.settle.figures.endRssMiB)} MiB`,
        `${n0(o.held.peakRssMiB)} MiB`,
        `${n0(Math.max(o.removal.figures.peakRssMiB, o.machines.figures.peakRssMiB))} MiB`,
        o.leftBehind,
      ]);
    }
    console.log("");
    cpuReport(outcomes);
    console.log("");
    mutationsReport(outcomes);
    console.log("");
    milestonesReport(outcomes);
    const trouble = server.trouble();
    console.log("");
    console.log(
      `server: peak RSS since start ${n0(sampler.highWaterMiB())} MiB; ${trouble.count} log lines that look like trouble${trouble.count ? `, the first: ${trouble.samples.slice(0, 3).join(" | ")}` : ""}`,
    );
    if (process.env.BENCH_PROFILE) {
      // The server writes its profiles as it exits.
      sampler.close();
      sampler = null;
      const { pid } = server;
      await server.stop();
      server = null;
      console.log("");
      profileReport(outcomes, process.env.BENCH_PROFILE, pid);
    }
  } finally {
    sampler?.close();
    await server?.stop();
    await store.close();
    rmSync(runDir, { recursive: true, force: true });
  }
  return failed;
}

main().then(
  (failed) => process.exit(failed ? 1 : 0),
  (error) => {
    console.error("bench failed:", error);
    process.exit(1);
  },
);
