// `lifeline status [model] [names…] [--format tabular|yaml|json]`.
import { type Command, Option } from "commander";
import { stringify } from "yaml";
import { CliStatusDocument } from "../../client/graphql.js";
import { Refusal, request, type Server } from "../api.js";
import { colours } from "../colour.js";
import { statusView, tabular } from "../status-view.js";

export function statusCommand(program: Command, connect: () => Server): void {
  program
    .command("status")
    .description("the model's applications, units, machines and integrations: life, agent and workload status")
    .argument("[model]", "the model", "default")
    .argument("[names...]", "only these applications, units or machines (and what they touch)")
    .addOption(new Option("--format <format>", "output format").choices(["tabular", "yaml", "json"]).default("tabular"))
    .addHelpText("after", "\nExample:\n  lifeline status\n  lifeline status default wordpress --format yaml")
    .action(async (model: string, names: string[], o: { format: "tabular" | "yaml" | "json" }) => {
      const data = await request(connect(), CliStatusDocument, { model });
      if (!data.model) throw new Refusal("NOT_FOUND", `no model named ${model} (lifeline models lists them)`);
      const view = statusView(data.model, names);
      if (o.format === "json") console.log(JSON.stringify(view, null, 2));
      else if (o.format === "yaml") process.stdout.write(stringify(view, { aliasDuplicateObjects: false }));
      else process.stdout.write(tabular(view, colours()));
    });
}
