// `npm start` stopped and started again on the same store: the dummy cloud
// comes back from its file (beside the data directory by default), boots its
// instances, and their machine agents run again from the credentials in the
// instances' userData, so a machine provisioned before the restart is still
// looked after: it deploys units, and when removed it goes Dying → Dead →
// removed, its instance stopped. Always on PGlite, in a directory of its own:
// the agents of a server on the shared test database would take on every
// other test's models.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readDummyState } from "../src/provider/dummy-state.js";
import { type LifelineProcess, startLifeline } from "./support/lifeline-process.js";
import { scaled } from "./support/time-scale.js";

const dir = mkdtempSync(join(tmpdir(), "lifeline-restart-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATABASE_URL: "", LIFELINE_DATA_DIR: join(dir, "pgdata"), LIFELINE_CLOUD_FILE: "", LIFELINE_PROVISIONER_POLL_MS: "200" };
const cloudFile = join(dir, "cloud.json");
const DEADLINE = { timeout: scaled(30_000), interval: 100 };

const MACHINES = `{ model(name: "default") { machines { edges { node { id life instanceId status { current } } } } } }`;
const machine = async (server: LifelineProcess, id: string) =>
  (await server.ok(MACHINES)).model.machines.edges.map((e: any) => e.node).find((m: any) => m.id === id) ?? null;
const UNITS = `{ model(name: "default") { units { edges { node { name agentStatus { current } } } } } }`;
const CLOUD = `{ cloud { instances { id machineId status } } }`;
/** The instances a restarted cloud would find (its file and journal). */
const storedInstances = () => readDummyState(cloudFile)!.instances.map((s) => s.instance.id);

describe("the agents across a restart of npm start", () => {
  let instanceId = "";

  it("a first run provisions a machine; its cloud is kept beside the data directory", { timeout: scaled(90_000) }, async () => {
    const first = startLifeline(env);
    await first.ready();
    expect(first.output()).toContain(`dummy cloud kept in ${cloudFile}`);
    const { id } = (await first.ok(`mutation { addMachine(input: { model: "default" }) { id } }`)).addMachine;
    expect(id).toBe("1");
    await expect.poll(async () => (await machine(first, "1"))?.status.current, DEADLINE).toBe("started");
    instanceId = (await machine(first, "1")).instanceId;
    expect(storedInstances()).toEqual([instanceId]);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
  });

  it("the next run boots the instance again: its machine agent deploys, and sees its machine removed to the end", {
    timeout: scaled(90_000),
  }, async () => {
    expect(existsSync(cloudFile)).toBe(true);
    const second = startLifeline(env);
    await second.ready();
    await second.until(/machine-1: started/);
    expect((await second.ok(CLOUD)).cloud.instances).toEqual([{ id: instanceId, machineId: "1", status: "running" }]);

    await second.ok(`mutation { deploy(input: { charm: "wordpress", placement: ["1"] }) { name } }`);
    await expect
      .poll(async () => (await second.ok(UNITS)).model.units.edges.map((e: any) => e.node.agentStatus.current), DEADLINE)
      .toEqual(["idle"]);
    await second.until(/machine-1: deployed unit wordpress\/0/);

    await second.ok(`mutation { removeUnit(input: { units: ["wordpress/0"], force: true }) { outcome } }`);
    await second.ok(`mutation { removeMachine(input: { machines: ["1"] }) { outcome } }`);
    await expect.poll(() => machine(second, "1"), DEADLINE).toBeNull();
    // The machine agent set it Dead, then the provisioner stopped its instance and removed it. The provisioner logs
    // that once removeDeadMachine has answered: the machine can be seen gone a moment before the line is printed.
    await second.until(new RegExp(`stopped ${instanceId} and removed machine 1`));
    expect(second.output()).toMatch(
      new RegExp(`machine-1: machine 1 is Dead; stopping for good[\\s\\S]*stopped ${instanceId} and removed machine 1`),
    );
    expect((await second.ok(CLOUD)).cloud.instances).toEqual([]);
    expect(storedInstances()).toEqual([]);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
