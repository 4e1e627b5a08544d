// The `lifeline` command's commands and global options.
import { Command } from "commander";
import { agentCommand } from "./commands/agent.js";
import { completionCommand } from "./commands/completion.js";
import { configCommand } from "./commands/config.js";
import { constraintsCommands } from "./commands/constraints.js";
import { debugLogCommand } from "./commands/debug-log.js";
import { createCommands } from "./commands/deploy.js";
import { loginCommands } from "./commands/login.js";
import { modelCommands } from "./commands/models.js";
import { removalCommands } from "./commands/removal.js";
import { resolvedCommand } from "./commands/resolved.js";
import { showCommands } from "./commands/show.js";
import { statusCommand } from "./commands/status.js";
import { waitForCommand } from "./commands/wait-for.js";
import { exitCodesHelp } from "./exit-codes.js";
import { resolveServer, type ServerOptions } from "./server.js";

/** The commands that talk to a server take --url and --token after their name too (`lifeline status --url …`). */
const SERVERLESS = new Set(["login", "logout", "agent", "help", "completion"]);

export function lifelineProgram(): Command {
  const program = new Command("lifeline")
    .description("Lifeline's command line: models, applications, units, machines and integrations, as Juju's")
    .option("--url <url>", "the server (overrides LIFELINE_URL and the stored login)")
    .option("--token <token>", "the bearer token (overrides LIFELINE_TOKEN and the stored login)")
    .addHelpText(
      "after",
      `\nGet started:\n  lifeline login http://127.0.0.1:4000 --code <code>   (npm start prints this line)\n  lifeline status\n\n${exitCodesHelp}`,
    )
    .showHelpAfterError("(add --help for usage)")
    // The program's options before the command, the command's after it: `lifeline agent` passes all of its own on.
    .enablePositionalOptions()
    // Usage errors throw instead of exiting: main.ts exits with 2 for them.
    .exitOverride();
  let running: Command = program;
  program.hook("preAction", (_, command) => {
    running = command;
  });
  const connect = () => resolveServer(running.optsWithGlobals<ServerOptions>());
  loginCommands(program);
  modelCommands(program, connect);
  statusCommand(program, connect);
  createCommands(program, connect);
  removalCommands(program, connect);
  resolvedCommand(program, connect);
  showCommands(program, connect);
  constraintsCommands(program, connect);
  configCommand(program, connect);
  waitForCommand(program, connect);
  debugLogCommand(program, connect);
  agentCommand(program);
  completionCommand(program);
  for (const command of program.commands.filter((c) => !SERVERLESS.has(c.name()))) {
    command.option("--url <url>", "the server (overrides LIFELINE_URL and the stored login)");
    command.option("--token <token>", "the bearer token (overrides LIFELINE_TOKEN and the stored login)");
  }
  return program;
}
