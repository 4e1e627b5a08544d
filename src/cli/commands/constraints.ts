// `lifeline constraints [application]`, `set-constraints <application> <constraints...>` and
// `set-model-constraints <constraints...>`, as Juju's: an application's constraints, or the model's, replaced whole.
// Units and machines already made keep the constraints they captured (seed 004).
import type { Command } from "commander";
import { CliApplicationConstraintsDocument, CliModelConstraintsDocument, CliSetConstraintsDocument } from "../../client/graphql.js";
import { Refusal, request, type Server } from "../api.js";
import { foundModel } from "../format.js";

type Connect = () => Server;

/** `mem=2G cores=2` and `'mem=2G cores=2'` alike: the words, one string. */
const joined = (words: string[]) => words.join(" ").trim();

export function constraintsCommands(program: Command, connect: Connect): void {
  program
    .command("constraints")
    .description("an application's constraints, or the model's when none is named (Juju syntax; empty when none)")
    .argument("[application]")
    .option("-m, --model <model>", "the model", "default")
    .addHelpText("after", "\nExample:\n  lifeline constraints wordpress\n  lifeline constraints -m staging")
    .action(async (application: string | undefined, o: { model: string }) => {
      const server = connect();
      if (application === undefined) {
        const model = foundModel((await request(server, CliModelConstraintsDocument, { model: o.model })).model, o.model);
        return console.log(model.constraints.text);
      }
      const model = foundModel((await request(server, CliApplicationConstraintsDocument, { model: o.model, application })).model, o.model);
      if (!model.application) throw new Refusal("NOT_FOUND", `no application ${application} in model ${o.model}`, { kind: "application" });
      console.log(model.application.constraints.text);
    });

  program
    .command("set-constraints")
    .description("replace an application's constraints: its units made from now on get them ('' clears them)")
    .argument("<application>")
    .argument("<constraints...>", "key=value words in Juju syntax: mem=2G cores=2 arch=amd64 …")
    .option("-m, --model <model>", "the model", "default")
    .addHelpText("after", "\nExample:\n  lifeline set-constraints wordpress mem=2G cores=2\n  lifeline set-constraints wordpress ''")
    .action(async (application: string, words: string[], o: { model: string }) => {
      const { setConstraints } = await request(connect(), CliSetConstraintsDocument, {
        input: { model: o.model, application, constraints: joined(words) },
      });
      console.log(`${application}: constraints ${setConstraints.text ? setConstraints.text : "cleared"}`);
    });

  program
    .command("set-model-constraints")
    .description("replace the model's constraints: the fallback for every key an application leaves unset ('' clears them)")
    .argument("<constraints...>", "key=value words in Juju syntax: mem=2G cores=2 arch=amd64 …")
    .option("-m, --model <model>", "the model", "default")
    .addHelpText("after", "\nExample:\n  lifeline set-model-constraints mem=4G\n  lifeline set-model-constraints -m staging ''")
    .action(async (words: string[], o: { model: string }) => {
      const { setConstraints } = await request(connect(), CliSetConstraintsDocument, {
        input: { model: o.model, constraints: joined(words) },
      });
      console.log(`model ${o.model}: constraints ${setConstraints.text ? setConstraints.text : "cleared"}`);
    });
}
