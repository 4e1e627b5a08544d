// The scale benchmark (issue 11, point 4): a model of BENCH_UNITS units (100,000 by
// default) built, read and removed through the API, as the issue checks it: "a
// 100,000-unit model created, listed and force-removed". Every step is an ordinary
// client's request to a server process of its own (agents off, so the only writers
// are this script's), on a fresh PostgreSQL database:
//
//   1. create  addUnit in calls of 1,000 units (the most one call takes), all on
//              machine 0, so the model holds N units and not N machines;
//   2. scopes  integrate them with another application and enterScope every unit,
//              8 clients at a time: the removal then has N members to take out;
//   3. list    the status query a page at a time (1,000 units a page);
//   4. remove  removeApplication with force, then runCleanups (the cleaner's
//              mutation) until nothing is queued and the application is gone;
//   5. destroy the model built again to N units, then destroyModel with force and
//              runCleanups until the model is Dead with no unit left (its machines
//              then wait for the provisioner, which is off here).
//
// Each phase prints its time, its cost per unit, the server's CPU per unit and its
// peak RSS; the issue asks that the cost per unit stays flat with N and RSS stays
// under 1 GiB. Leftovers (units, scopes, settings, cleanups) are counted in the
// database at the end: a removal that leaves anything fails the run.
// BENCH_PROFILE=<dir> writes the server's V8 CPU profile there.
import postgres from "postgres";
import { type Api, apiAt } from "./api.js";
import { createBenchDatabase } from "./database.js";
import { type LifelineProcess, serverNodeFlags, startLifeline } from "./lifeline-process.js";
import { type PhaseFigures, ProcessSampler } from "./process-sampler.js";
import { loadAverages, machineLine, printHeader, printRow } from "./stats.js";

const UNITS = Number(process.env.BENCH_UNITS ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const BATCH = 1000;
/** A phase that has not finished by then fails the run with what it reached. */
const DEADLINE_S = Number(process.env.BENCH_DEADLINE_S ?? 3600);

const log = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const n0 = (value: number) => Math.round(value).toLocaleString("en-US");

interface Phase {
  name: string;
  seconds: number;
  units: number;
  figures: PhaseFigures;
}

async function timed(name: string, units: number, sampler: ProcessSampler, work: () => Promise<void>): Promise<Phase> {
  const measuring = sampler.phase();
  const started = performance.now();
  await work();
  const phase = { name, units, seconds: (performance.now() - started) / 1000, figures: measuring.end() };
  log(`${name}: ${phase.seconds.toFixed(1)} s, peak RSS ${n0(phase.figures.peakRssMiB)} MiB`);
  return phase;
}

/** Runs `count` jobs, `CLIENTS` at a time. */
async function inParallel(count: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

async function build(api: Api, model: string, application: string): Promise<void> {
  await api(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, {
    input: { model, charm: "mysql", application, numUnits: 0 },
  });
  const calls = Math.ceil(UNITS / BATCH);
  for (let call = 0; call < calls; call++) {
    const count = Math.min(BATCH, UNITS - call * BATCH);
    await api(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, {
      input: { model, application, count, placement: Array(count).fill("0") },
    });
  }
}

/** Runs the cleaner's mutation until `done()` holds; each call runs bounded batches. */
async function cleanUntil(api: Api, model: string | null, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_S * 1000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${DEADLINE_S} s`);
    await api(`mutation ($model: String) { runCleanups(model: $model, maxBatches: 100) { batches } }`, { model });
  }
}

async function leftovers(sql: postgres.Sql, modelId: string): Promise<Record<string, number>> {
  const count = async (table: string) =>
    Number((await sql.unsafe(`select count(*)::int as n from ${table} where model_id = $1`, [modelId]))[0]!.n);
  return {
    units: await count("units"),
    scopes: await count("relation_scopes"),
    settings: await count("relation_settings"),
    cleanups: await count("cleanups"),
  };
}

async function main() {
  const startLoad = loadAverages();
  const database = await createBenchDatabase("scale");
  const { name: dbName, url: dbUrl } = database;
  const sql = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  let server: LifelineProcess | null = null;
  let sampler: ProcessSampler | null = null;
  try {
    server = await startLifeline({ DATABASE_URL: dbUrl.toString(), LIFELINE_AGENTS: "0" }, serverNodeFlags());
    sampler = new ProcessSampler(server.pid);
    const api = apiAt(server.url);
    log(`server (agents off) at ${server.url}, pid ${server.pid}, database ${dbName}; ${n0(UNITS)} units`);
    const model = "scale";
    const modelId = (await api<{ addModel: { uuid: string } }>(`mutation { addModel(input: { name: "${model}" }) { uuid } }`)).addModel
      .uuid;
    const phases: Phase[] = [];

    phases.push(await timed("create (addUnit × 1,000)", UNITS, sampler, () => build(api, model, "db")));
    let relation = 0;
    phases.push(
      await timed("enter every scope (enterScope)", UNITS, sampler, async () => {
        await api(`mutation { deploy(input: { model: "${model}", charm: "wordpress", numUnits: 0 }) { name } }`);
        const { integrate } = await api<{ integrate: { id: number } }>(
          `mutation { integrate(input: { model: "${model}", endpoints: ["wordpress", "db"] }) { id } }`,
        );
        relation = integrate.id;
        await inParallel(UNITS, (i) =>
          api(`mutation ($input: EnterScopeInput!) { enterScope(input: $input) { __typename } }`, {
            input: { model, relation, unit: `db/${i}`, privateAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
          }).then(() => {}),
        );
      }),
    );
    let listed = 0;
    phases.push(
      await timed("list (status, 1,000 a page)", UNITS, sampler, async () => {
        type Page = {
          model: { units: { edges: { node: { name: string } }[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } } };
        };
        for (let after: string | null = null; ; ) {
          const page: Page = await api<Page>(
            `query ($after: String) { model(name: "${model}") { units(first: 1000, after: $after) {
              edges { node { name life agentStatus { current } workloadStatus { current } machine { id } } }
              pageInfo { endCursor hasNextPage } } } }`,
            { after },
          );
          listed += page.model.units.edges.length;
          if (!page.model.units.pageInfo.hasNextPage) break;
          after = page.model.units.pageInfo.endCursor;
        }
      }),
    );
    if (listed !== UNITS) throw new Error(`listed ${listed} units, expected ${UNITS}`);
    phases.push(
      await timed("forced removeApplication, cleanups run", UNITS, sampler, async () => {
        await api(`mutation { removeApplication(input: { model: "${model}", applications: ["db"], force: true }) { outcome } }`);
        await cleanUntil(api, model, async () => {
          const left = await leftovers(sql, modelId);
          return left.units === 0 && left.cleanups === 0;
        });
      }),
    );
    const afterRemoval = await leftovers(sql, modelId);

    await timed("create again (for destroyModel)", UNITS, sampler, () => build(api, model, "db2"));
    phases.push(
      await timed("forced destroyModel, cleanups run", UNITS, sampler, async () => {
        await api(`mutation { destroyModel(name: "${model}", force: true) }`);
        // The model ends Dead, its units and scopes gone (its machines wait for a provisioner: agents are off).
        await cleanUntil(api, model, async () => {
          const [row] = await sql`select life from models where id = ${modelId}`;
          const left = await leftovers(sql, modelId);
          return row?.life === "dead" && left.units === 0 && left.cleanups === 0;
        });
      }),
    );
    const afterDestroy = await leftovers(sql, modelId);

    console.log("");
    console.log(machineLine(startLoad));
    console.log(`Lifeline at ${n0(UNITS)} units, through the API (agents off; ${CLIENTS} clients for enterScope)`);
    console.log("");
    printHeader(["phase", "units", "time", "per unit", "server CPU per unit", "server peak RSS"]);
    for (const p of phases)
      printRow([
        p.name,
        n0(p.units),
        `${p.seconds.toFixed(1)} s`,
        `${((p.seconds * 1000) / p.units).toFixed(3)} ms`,
        `${((p.figures.cpuSeconds * 1000) / p.units).toFixed(3)} ms`,
        `${n0(p.figures.peakRssMiB)} MiB`,
      ]);
    const peak = sampler.highWaterMiB();
    console.log("");
    console.log(`server: peak RSS since start ${n0(peak)} MiB (issue's bound: 1,024 MiB; ${peak < 1024 ? "met" : "not met"})`);
    const said = (left: Record<string, number>) =>
      Object.values(left).every((n) => n === 0)
        ? "nothing"
        : Object.entries(left)
            .map(([k, n]) => `${n} ${k}`)
            .join(", ");
    console.log(`left behind after the forced removal: ${said(afterRemoval)}; after destroyModel: ${said(afterDestroy)}`);
    if (!Object.values({ ...afterRemoval, ...afterDestroy }).every((n) => n === 0)) process.exitCode = 1;
  } finally {
    sampler?.close();
    await server?.stop();
    await sql.end({ timeout: 5 });
    await database.drop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error("bench:", error);
    process.exit(1);
  },
);
