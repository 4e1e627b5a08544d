// status-set: a charm's word on its workload, through its unit agent (Juju's
// workload status), taking effect at once.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { deploy, snapshot } from "./support/fixtures.js";

const api = useApi();
const SET = `mutation ($input: WorkloadStatusInput!) { setWorkloadStatus(input: $input) { name workloadStatus { current message } } }`;
const STATUS = `query ($model: String!) { model(name: $model) { unit(name: "wordpress/0") { workloadStatus { current message } } } }`;

describe("setWorkloadStatus (status-set)", () => {
  it("sets the unit's workload status and message, shown by the status query", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await api.ok(SET, { input: { model, unit: "wordpress/0", status: "ACTIVE", message: "database at 10.0.0.7" } });
    expect((await api.ok(STATUS, { model })).model.unit.workloadStatus).toEqual({ current: "active", message: "database at 10.0.0.7" });
  });

  it("a message over 1000 characters is refused with INVALID_ARGUMENT, and nothing changes", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const before = await snapshot(api, model);
    await api.refused("INVALID_ARGUMENT", SET, { input: { model, unit: "wordpress/0", status: "ACTIVE", message: "x".repeat(1001) } });
    expect(await snapshot(api, model)).toEqual(before);
    expect((await api.ok(STATUS, { model })).model.unit.workloadStatus.current).toBe("waiting");
  });

  it("an unknown unit is NOT_FOUND", async () => {
    const model = await api.newModel();
    await api.refused("NOT_FOUND", SET, { input: { model, unit: "wordpress/9", status: "ACTIVE" } });
  });
});
