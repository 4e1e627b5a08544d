// The create commands, named after Juju's: deploy, add-unit, add-machine, integrate.
import { type Command, InvalidArgumentError } from "commander";
import { AddMachineDocument, AddUnitDocument, DeployDocument, IntegrateDocument } from "../../client/graphql.js";
import { request, type Server } from "../api.js";

type Connect = () => Server;
const collect = (value: string, previous: string[] = []) => [...previous, value];
const count = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("not a count");
  return n;
};

export function createCommands(program: Command, connect: Connect): void {
  program
    .command("deploy")
    .description("deploy a charm as an application, with its units each on a new machine unless placed")
    .argument("<charm>", "the charm's name or url (local:wordpress-1)")
    .argument("[application]", "the application's name (default: the charm's)")
    .option("-m, --model <model>", "the model", "default")
    .option("-n, --num-units <n>", "how many units", count)
    .option("--to <placement>", "placement directive (repeatable): a machine id, lxd:1, …", collect)
    .option("--series <series>")
    .option("--constraints <constraints>", "e.g. 'mem=2G cores=2'")
    .option("--config <key=value>", "a setting (repeatable)", collect)
    .addHelpText("after", "\nExample:\n  lifeline deploy wordpress -n 2\n  lifeline deploy mysql --to 0")
    .action(async (charm: string, application: string | undefined, o: DeployOptions) => {
      const config = (o.config ?? []).map((pair) => {
        const at = pair.indexOf("=");
        return { key: pair.slice(0, at), value: pair.slice(at + 1) };
      });
      const { deploy } = await request(connect(), DeployDocument, {
        input: {
          model: o.model,
          charm,
          application,
          numUnits: o.numUnits,
          placement: o.to,
          series: o.series,
          constraints: o.constraints,
          config: config.length ? config : undefined,
        },
      });
      const units = deploy.units.edges.map((e) => `${e.node.name} (machine ${e.node.machine?.id ?? "none"})`);
      console.log(`deployed ${deploy.name}${units.length ? `: ${units.join(", ")}` : ""}`);
    });

  program
    .command("add-unit")
    .description("add units to an application")
    .argument("<application>")
    .option("-m, --model <model>", "the model", "default")
    .option("-n, --num-units <n>", "how many units", count, 1)
    .option("--to <placement>", "placement directive (repeatable)", collect)
    .addHelpText("after", "\nExample:\n  lifeline add-unit wordpress -n 2")
    .action(async (application: string, o: { model: string; numUnits: number; to?: string[] }) => {
      const { addUnit } = await request(connect(), AddUnitDocument, {
        input: { model: o.model, application, count: o.numUnits, placement: o.to },
      });
      for (const unit of addUnit) console.log(`added unit ${unit.name} (machine ${unit.machine?.id ?? "none"})`);
    });

  program
    .command("add-machine")
    .description("add a machine (or a container on one) with no units")
    .argument("[placement]", "lxd:<machine> or kvm:<machine> for a container")
    .option("-m, --model <model>", "the model", "default")
    .option("--series <series>")
    .option("--constraints <constraints>", "e.g. 'mem=2G cores=2'")
    .addHelpText("after", "\nExample:\n  lifeline add-machine --constraints mem=4G\n  lifeline add-machine lxd:0")
    .action(async (placement: string | undefined, o: { model: string; series?: string; constraints?: string }) => {
      const [kind, parent] = placement?.split(":") ?? [];
      const containerType = kind ? (kind.toUpperCase() as "LXD" | "KVM") : undefined;
      const { addMachine } = await request(connect(), AddMachineDocument, {
        input: { model: o.model, series: o.series, constraints: o.constraints, containerType, parent },
      });
      console.log(`added machine ${addMachine.id}`);
    });

  program
    .command("integrate")
    .description("relate two applications (endpoints inferred when one pair matches)")
    .argument("<endpoint>", "an application, or application:endpoint")
    .argument("<endpoint>")
    .option("-m, --model <model>", "the model", "default")
    .addHelpText("after", "\nExample:\n  lifeline integrate wordpress mysql\n  lifeline integrate wordpress:db mysql:server")
    .action(async (a: string, b: string, o: { model: string }) => {
      const { integrate } = await request(connect(), IntegrateDocument, { input: { model: o.model, endpoints: [a, b] } });
      console.log(`added integration ${integrate.id}: ${integrate.key} (${integrate.interface})`);
    });
}

interface DeployOptions {
  model: string;
  numUnits?: number;
  to?: string[];
  series?: string;
  constraints?: string;
  config?: string[];
}
