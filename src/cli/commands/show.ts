// `lifeline show-unit|show-machine|show-application <name>`: everything about one entity, as Juju's show-* commands
// (yaml by default): life, statuses, placement, its blockers while Dying and, for units and applications, the
// latest hook runs with their juju-log lines (Model.hookHistory, which outlives the unit).
import { type Command, InvalidArgumentError } from "commander";
import {
  CliShowApplicationDocument,
  CliShowMachineDocument,
  CliShowUnitDocument,
  CliUnitHookHistoryDocument,
} from "../../client/graphql.js";
import { Refusal, request, type Server } from "../api.js";
import { type Format, formatOption, foundModel, printDocument } from "../format.js";
import { applicationView, machineView, removedUnitView, unitView } from "../show-view.js";

type Connect = () => Server;
type ShowOptions = { model: string; format: Exclude<Format, "tabular">; runs: number };

/** Juju's show-status-log shows a screenful; so do these. */
const RECENT_RUNS = 10;

const runsOption = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new InvalidArgumentError("not a count from 1 to 100");
  return n;
};

const nodes = <Node>(connection: { edges: readonly { node: Node }[] }) => connection.edges.map((e) => e.node);

function showCommand(program: Command, name: string, what: string, argument: string, example: string): Command {
  return program
    .command(name)
    .description(what)
    .argument(argument)
    .option("-m, --model <model>", "the model", "default")
    .addOption(formatOption(["yaml", "json"], "yaml"))
    .addHelpText("after", `\nExample:\n  ${example}\n  ${example} --format json`);
}

export function showCommands(program: Command, connect: Connect): void {
  showCommand(
    program,
    "show-unit",
    "a unit: life, statuses, machine, relations, blockers and its latest hook runs (a removed unit's too: history only)",
    "<unit>",
    "lifeline show-unit wordpress/0",
  )
    .option("--runs <n>", "how many of its latest hook runs", runsOption, RECENT_RUNS)
    .action(async (name: string, o: ShowOptions) => {
      const server = connect();
      const variables = { model: o.model, unit: name, runs: o.runs };
      try {
        const model = foundModel((await request(server, CliShowUnitDocument, variables)).model, o.model);
        if (!model.unit) throw new Refusal("NOT_FOUND", `unit ${name} not found`, { kind: "unit" });
        return printDocument(unitView(model.unit, nodes(model.hookHistory)), o.format);
      } catch (error) {
        if (!(error instanceof Refusal && error.code === "NOT_FOUND" && error.extensions.kind === "unit")) throw error;
        // Gone, but its hook runs outlive it: those are shown, and stderr says why there is nothing else.
        const runs = nodes(foundModel((await request(server, CliUnitHookHistoryDocument, variables)).model, o.model).hookHistory);
        if (!runs.length)
          throw new Refusal("NOT_FOUND", `no unit ${name} in model ${o.model}, nor any hook history of one`, { kind: "unit" });
        console.error(`unit ${name} is gone: only its hook history is left`);
        printDocument(removedUnitView(name, runs), o.format);
      }
    });

  showCommand(
    program,
    "show-machine",
    "a machine: life, provisioning (instance, status message, constraints), units, containers, blockers, its units' hook runs",
    "<machine>",
    "lifeline show-machine 1",
  )
    .option("--runs <n>", "how many of its units' latest hook runs", runsOption, RECENT_RUNS)
    .action(async (id: string, o: ShowOptions) => {
      const server = connect();
      const model = foundModel((await request(server, CliShowMachineDocument, { model: o.model, machine: id })).model, o.model);
      if (!model.machine) throw new Refusal("NOT_FOUND", `no machine ${id} in model ${o.model}`, { kind: "machine" });
      // The API keeps hook runs by unit: a machine's are its units' latest, merged (a machine has few units).
      const histories = await Promise.all(
        model.machine.units.map(async (unit) => {
          const data = await request(server, CliUnitHookHistoryDocument, { model: o.model, unit: unit.name, runs: o.runs });
          return data.model ? nodes(data.model.hookHistory) : [];
        }),
      );
      const runs = histories
        .flat()
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        .slice(0, o.runs);
      printDocument(machineView(model.machine, runs), o.format);
    });

  showCommand(
    program,
    "show-application",
    "an application: life, charm, constraints, config, units, relations, blockers and its units' latest hook runs",
    "<application>",
    "lifeline show-application wordpress",
  )
    .option("--runs <n>", "how many of its units' latest hook runs", runsOption, RECENT_RUNS)
    .action(async (name: string, o: ShowOptions) => {
      const data = await request(connect(), CliShowApplicationDocument, { model: o.model, application: name, runs: o.runs });
      const model = foundModel(data.model, o.model);
      if (!model.application) throw new Refusal("NOT_FOUND", `no application ${name} in model ${o.model}`, { kind: "application" });
      printDocument(applicationView(model.application, nodes(model.hookHistory)), o.format);
    });
}
