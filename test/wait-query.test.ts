// `lifeline wait-for`'s parts apart from any server: Juju's query language, parsed and evaluated (src/cli/wait-query.ts);
// the entities it is evaluated against, built from stream events (src/cli/wait-state.ts); the progress line.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { progress } from "../src/cli/progress.js";
import { parseDuration } from "../src/cli/wait.js";
import { compileQuery, type Fields, QueryError, type Scope } from "../src/cli/wait-query.js";
import { fieldsFor, type WaitEvent, WaitState } from "../src/cli/wait-state.js";

const unit = (name: string, workload: string, agent = "idle"): Scope => ({
  name,
  life: "alive",
  "workload-status": workload,
  "agent-status": agent,
});
const application: Scope = {
  name: "wordpress",
  life: "alive",
  status: "active",
  "unit-count": 2,
  units: [unit("wordpress/0", "active"), unit("wordpress/1", "waiting", "executing")],
};
const holds = (query: string, scope: Scope = application, fields: Fields = fieldsFor.application) =>
  compileQuery(query, fields).holds(scope);
const failure = (query: string, fields: Fields = fieldsFor.application) => {
  try {
    compileQuery(query, fields);
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`${query} parsed`);
};

describe("wait-for queries", () => {
  it("compares strings, numbers and booleans with == and !=", () => {
    expect(holds('life=="alive" && status=="active"')).toBe(true);
    expect(holds('status!="active"')).toBe(false);
    expect(holds("unit-count==2")).toBe(true);
    expect(holds("subordinate==false", { ...application, subordinate: false })).toBe(true);
    expect(holds("life=='alive'")).toBe(true);
  });

  it("orders numbers and strings with < > <= >=, and nothing else", () => {
    expect(holds("unit-count>1 && unit-count>=2 && unit-count<3 && unit-count<=2")).toBe(true);
    expect(holds("unit-count<2")).toBe(false);
    expect(holds('name<"x"')).toBe(true);
    expect(holds('unit-count<"3"')).toBe(false);
  });

  it("gives ! and parentheses their usual meaning, && binding tighter than ||", () => {
    expect(holds('!(status=="active")')).toBe(false);
    expect(holds('status=="blocked" || status=="active" && life=="alive"')).toBe(true);
    expect(holds('(status=="blocked" || status=="active") && life=="dead"')).toBe(false);
    expect(holds('!(life=="dead")')).toBe(true);
  });

  it("reads fields spelled with dashes, as Juju spells them", () => {
    expect(holds('workload-status=="active" && agent-status=="idle"', unit("mysql/0", "active"), fieldsFor.unit)).toBe(true);
  });

  it("forEach holds when the lambda holds of every element; len counts", () => {
    expect(holds('forEach(units, u => u.life=="alive")')).toBe(true);
    expect(holds('forEach(units, u => u.workload-status=="active")')).toBe(false);
    expect(holds("len(units)==2")).toBe(true);
    expect(holds('forEach(units, u => startsWith(u.name, "wordpress/"))')).toBe(true);
    expect(holds('endsWith(name, "press")')).toBe(true);
    expect(holds('forEach(units, u => u.life=="alive")', { ...application, units: [] })).toBe(true);
  });

  it("a field the entity does not have is an error at its position", () => {
    const error = failure('life=="alive" && stauts=="active"');
    expect(error.position).toBe(17);
    expect(error.message).toMatch(/unknown field stauts .* at position 18/);
    expect(failure('forEach(units, u => u.colour=="red")').message).toMatch(/unknown field colour/);
  });

  it("a syntax error names what was expected and where", () => {
    expect(failure('life=="alive" &&').message).toBe("expected a value, found the end at position 17");
    expect(failure('(life=="alive"').message).toBe("expected ), found the end at position 15");
    expect(failure('life=="alive" status').position).toBe(14);
    expect(failure('life="alive"').message).toMatch(/unexpected character "=" at position 5/);
    expect(failure('life=="alive').message).toMatch(/unterminated string at position 7/);
    expect(failure("forEach(units, 1)").message).toMatch(/lambda/);
    expect(failure("lenn(units)").message).toMatch(/unknown function lenn/);
    expect(failure('life=="alive" && lief=="x"').pointer()).toBe('  life=="alive" && lief=="x"\n                   ^');
  });

  it("says which top-level fields it reads", () => {
    expect(compileQuery('life=="alive" && forEach(units, u => u.life=="alive")', fieldsFor.application).reads).toEqual(["life", "units"]);
  });

  it("takes Go's durations for --timeout", () => {
    expect(parseDuration("10m")).toBe(600_000);
    expect(parseDuration("1m30s")).toBe(90_000);
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("10")).toBeNull();
    expect(parseDuration("0s")).toBeNull();
    expect(parseDuration("soon")).toBeNull();
  });
});

type Unit = NonNullable<WaitEvent["unit"]>;
const unitEvent = (type: WaitEvent["type"], name: string, fields: Partial<Unit>, extra: Partial<WaitEvent> = {}): WaitEvent => ({
  type,
  revision: "1",
  kind: "UNIT",
  entity: name,
  life: "ALIVE",
  removed: false,
  changed: Object.keys(fields),
  model: null,
  machine: null,
  application: null,
  unit: {
    name,
    applicationName: "mysql",
    series: null,
    machineId: null,
    principalName: null,
    subordinate: null,
    workloadStatus: null,
    agentStatus: null,
    ...fields,
  },
  ...extra,
});
const bookmark = (): WaitEvent => ({ ...unitEvent("BOOKMARK", "", {}), kind: null, entity: null, unit: null, life: null });
const status = (current: string) => ({ current, message: "" });

describe("what wait-for evaluates: the stream's entities", () => {
  it("holds the snapshot once its bookmark comes, and merges each change's fields over it", () => {
    const state = new WaitState();
    state.reset();
    expect(state.apply(unitEvent("STATE", "mysql/0", { workloadStatus: status("WAITING"), agentStatus: status("IDLE") }))).toBe(false);
    expect(state.scope("unit", "mysql/0")).toBeNull(); // the snapshot is not whole yet
    expect(state.apply(bookmark())).toBe(true);
    expect(state.scope("unit", "mysql/0")).toMatchObject({ life: "alive", "workload-status": "waiting", "agent-status": "idle" });
    state.apply(unitEvent("CHANGE", "mysql/0", { workloadStatus: status("ACTIVE") }, { life: null }));
    expect(state.scope("unit", "mysql/0")).toMatchObject({ life: "alive", "workload-status": "active", "agent-status": "idle" });
  });

  it("a removed entity is kept as last seen, Dead, for the wait's verdict", () => {
    const state = new WaitState();
    state.reset();
    state.apply(unitEvent("STATE", "mysql/0", { workloadStatus: status("ACTIVE") }));
    state.apply(bookmark());
    state.apply(unitEvent("CHANGE", "mysql/0", {}, { life: null, removed: true }));
    expect(state.scope("unit", "mysql/0")).toBeNull();
    expect(state.removed.get("unit mysql/0")).toMatchObject({ life: "dead", "workload-status": "active" });
  });

  it("an application's status is its most pressing unit's, and its units are its own", () => {
    const state = new WaitState();
    state.reset();
    state.apply({
      ...unitEvent("STATE", "mysql", {}),
      kind: "APPLICATION",
      unit: null,
      application: { name: "mysql", charmUrl: "bundled:mysql-0", series: "jammy", subordinate: false, unitCount: 2 },
    });
    state.apply(unitEvent("STATE", "mysql/0", { workloadStatus: status("ACTIVE") }));
    state.apply(unitEvent("STATE", "mysql/1", { workloadStatus: status("BLOCKED") }));
    state.apply(unitEvent("STATE", "other/0", { applicationName: "other", workloadStatus: status("ERROR") }));
    state.apply(bookmark());
    const scope = state.scope("application", "mysql")!;
    expect(scope).toMatchObject({ life: "alive", status: "blocked", "unit-count": 2 });
    expect(compileQuery('forEach(units, u => startsWith(u.name, "mysql/"))', fieldsFor.application).holds(scope)).toBe(true);
  });
});

describe("the progress line", () => {
  it("draws nothing where its stream is no terminal", () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    let written = "";
    (stream as unknown as PassThrough).on("data", (data) => (written += data));
    const line = progress("waiting", stream);
    line.update("still waiting");
    line.stop();
    expect(written).toBe("");
  });
});
