// A machine agent as its own OS process (`npm run agent -- machine <id> …`),
// talking to a server over a real socket with the credentials file an admin
// (or the provisioner) handed it: it deploys its units, and when its machine
// is removed it sets it Dead and exits.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "lifeline-agent-"));
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
const DEADLINE = { timeout: scaled(30_000), interval: 100 };

function agent(args: string[]) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/agents/cli.ts", ...args], {
    cwd: root,
    env: { ...process.env, LIFELINE_LOG: "info" },
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, exited, output: () => output };
}

const status = async (model: string) =>
  (
    await live.ok(
      `query ($model: String!) { model(name: $model) { machines { edges { node { id life status { current } } } }
        units { edges { node { name agentStatus { current } } } } } }`,
      { model },
    )
  ).model;

describe("a machine agent as its own process", () => {
  it("logs in with its credentials file, deploys its units, and sets its removed machine Dead, then exits", async () => {
    const { name: model } = await live.newModel();
    const id = (await live.ok(`mutation ($model: String!) { addMachine(input: { model: $model }) { id } }`, { model })).addMachine.id;
    // The instance this agent runs on, started by hand.
    await live.ok(`mutation ($input: ProvisionedInput!) { setMachineProvisioned(input: $input) { id } }`, {
      input: { model, machine: id, instanceId: "by-hand-1" },
    });
    const { token, tag } = (
      await live.ok(`mutation ($input: AgentMachineInput!) { issueMachineCredentials(input: $input) { tag token } }`, {
        input: { model, machine: id },
      })
    ).issueMachineCredentials;
    const file = join(dir, "machine.json");
    writeFileSync(file, JSON.stringify({ model, machine: id, tag, token }));

    const running = agent(["machine", id, "--url", live.url, "--credentials-file", file]);
    await expect
      .poll(async () => (await status(model)).machines.edges.find((e: any) => e.node.id === id)?.node.status.current, DEADLINE)
      .toBe("started");

    await live.ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, {
      input: { model, charm: "wordpress", placement: [id] },
    });
    await expect
      .poll(async () => (await status(model)).units.edges.map((e: any) => e.node.agentStatus.current), DEADLINE)
      .toEqual(["idle"]);
    // Its log says which agent did what (printed just after the unit's agent reported).
    await expect.poll(() => running.output(), DEADLINE).toMatch(new RegExp(`${tag}: deployed unit wordpress/0`));

    await live.ok(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, {
      input: { model, units: ["wordpress/0"], force: true },
    });
    await live.ok(`mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { outcome } }`, {
      input: { model, machines: [id] },
    });
    expect(await running.exited).toBe(0);
    const machine = (await status(model)).machines.edges.find((e: any) => e.node.id === id)?.node;
    expect(machine).toMatchObject({ life: "DEAD", status: { current: "stopped" } });
  });

  it("without the arguments it needs, it says how to run it and exits 2", async () => {
    const { exited, output } = agent(["machine", "1"]);
    expect(await exited).toBe(2);
    expect(output()).toMatch(/--url is required\nusage: npm run agent -- machine <id>/);
  });
});
