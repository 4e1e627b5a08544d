// `lifeline agent machine <id> …`: the agent runner (src/agents/cli.ts), which parses its own arguments and --help.
// The one place src/cli reaches into src/agents (.dependency-cruiser.cjs allows this file alone).
import type { Command } from "commander";

export function agentCommand(program: Command): void {
  program
    .command("agent")
    .description("run a machine's agent against a server: lifeline agent machine <id> --help")
    .argument("[args...]")
    .helpOption(false)
    .allowUnknownOption()
    .passThroughOptions()
    .action(async (args: string[]) => {
      const { runAgent } = await import("../../agents/cli.js");
      await runAgent(args);
    });
}
