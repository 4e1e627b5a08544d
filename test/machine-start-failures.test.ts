// Issue 36, "Provisioning you can see": "A machine shows the constraints its instance was asked for, how many start
// attempts were made and the provider's last error, so 'no further attempts' can be read, not inferred from a window
// of silence." The provisioner records each failed start (recordStartFailure); these are the rules of that record.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";

const api = useApi();
const FAIL = `mutation ($input: StartFailureInput!) { recordStartFailure(input: $input) {
  startAttempts lastStartError status { current message } } }`;
const ADD = `mutation ($input: AddMachineInput!) { addMachine(input: $input) { id } }`;

async function newMachine(): Promise<{ model: string; machine: string }> {
  const model = await api.newModel();
  const { addMachine } = await api.ok(ADD, { input: { model } });
  return { model, machine: addMachine.id };
}

describe("recordStartFailure", () => {
  it("with a retry, counts the attempt and keeps the machine pending, saying when the next comes", async () => {
    const target = await newMachine();
    const first = await api.ok(FAIL, { input: { ...target, message: "no capacity in zone-a", retryInMs: 10_000 } });
    expect(first.recordStartFailure).toEqual({
      startAttempts: 1,
      lastStartError: "no capacity in zone-a",
      status: { current: "pending", message: "start attempt 1 failed: no capacity in zone-a (retrying in 10 s)" },
    });
    const second = await api.ok(FAIL, { input: { ...target, message: "no capacity in zone-b", retryInMs: 180_000 } });
    expect(second.recordStartFailure.status.message).toBe("start attempt 2 failed: no capacity in zone-b (retrying in 3 min)");
  });

  it("without a retry, puts the machine in error with the provider's message: no further attempts", async () => {
    const target = await newMachine();
    await api.ok(FAIL, { input: { ...target, message: "quota exceeded", retryInMs: 10 } });
    const last = await api.ok(FAIL, { input: { ...target, message: "quota exceeded" } });
    expect(last.recordStartFailure).toEqual({
      startAttempts: 2,
      lastStartError: "quota exceeded",
      status: { current: "error", message: "quota exceeded" },
    });
  });

  it("is refused ALREADY_PROVISIONED for a machine with an instance, and nothing changes", async () => {
    const target = await newMachine();
    await api.ok(`mutation ($input: ProvisionedInput!) { setMachineProvisioned(input: $input) { id } }`, {
      input: { ...target, instanceId: "i-1" },
    });
    await api.refused("ALREADY_PROVISIONED", FAIL, { input: { ...target, message: "late" } });
    const { model } = await api.ok(`query ($m: String!, $id: String!) { model(name: $m) { machine(id: $id) { startAttempts } } }`, {
      m: target.model,
      id: target.machine,
    });
    expect(model.machine.startAttempts).toBe(0);
  });

  it("is refused INVALID_ARGUMENT for a retry outside 0 ms to a day", async () => {
    const target = await newMachine();
    for (const retryInMs of [-1, 86_400_001])
      expect((await api.refused("INVALID_ARGUMENT", FAIL, { input: { ...target, message: "x", retryInMs } })).message).toContain(
        "retryInMs",
      );
  });

  it("is refused NOT_FOUND for no such machine", async () => {
    const model = await api.newModel();
    await api.refused("NOT_FOUND", FAIL, { input: { model, machine: "42", message: "x" } });
  });
});
