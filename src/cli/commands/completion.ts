// `lifeline completion bash|zsh`: a completion script for the shell, generated from the program's commands.
import { Argument, type Command } from "commander";
import { bashCompletion, zshCompletion } from "../completion.js";

export function completionCommand(program: Command): void {
  program
    .command("completion")
    .description("print a shell completion script for lifeline's commands and options")
    .addArgument(new Argument("<shell>").choices(["bash", "zsh"]))
    .addHelpText(
      "after",
      "\nExample:\n  source <(lifeline completion bash)     # in ~/.bashrc\n  source <(lifeline completion zsh)      # in ~/.zshrc, after compinit",
    )
    .action((shell: "bash" | "zsh") => {
      process.stdout.write(shell === "bash" ? bashCompletion(program) : zshCompletion(program));
    });
}
