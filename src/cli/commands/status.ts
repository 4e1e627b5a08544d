// `lifeline status [model] [names…] [--format tabular|yaml|json] [--watch]`.
import { type Command, Option } from "commander";
import { stringify } from "yaml";
import { CliStatusDocument } from "../../client/graphql.js";
import { Refusal, request, type Server } from "../api.js";
import { colours } from "../colour.js";
import { statusInput, statusView, tabular } from "../status-view.js";
import { type StatusFormat, watchStatus } from "../status-watch.js";

export function statusCommand(program: Command, connect: () => Server): void {
  program
    .command("status")
    .description("the model's applications, units, machines and integrations: life, agent and workload status")
    .argument("[model]", "the model", "default")
    .argument("[names...]", "only these applications, units or machines (and what they touch)")
    .addOption(new Option("--format <format>", "output format").choices(["tabular", "yaml", "json"]).default("tabular"))
    .option("--watch", "redraw on every change (from the model's change stream, not polling) until Ctrl-C")
    .addHelpText("after", "\nExample:\n  lifeline status\n  lifeline status default wordpress --format yaml\n  lifeline status --watch")
    .action(async (model: string, names: string[], o: { format: StatusFormat; watch?: boolean }) => {
      if (o.watch) return watchStatus(connect(), model, names, o.format);
      const data = await request(connect(), CliStatusDocument, { model });
      if (!data.model) throw new Refusal("NOT_FOUND", `no model named ${model} (lifeline models lists them)`);
      const view = statusView(statusInput(data.model), names);
      if (o.format === "json") console.log(JSON.stringify(view, null, 2));
      else if (o.format === "yaml") process.stdout.write(stringify(view, { aliasDuplicateObjects: false }));
      else process.stdout.write(tabular(view, colours()));
    });
}
