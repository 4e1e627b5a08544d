// The `lifeline` executable's entry (bin/lifeline.mjs imports it): runs the command line, exits with exit-codes.ts'.
import { CommanderError } from "commander";
import { reportFailure } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import { lifelineProgram } from "./program.js";

async function main(argv: string[]): Promise<number> {
  try {
    await lifelineProgram().parseAsync(argv, { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    // Commander printed its own message (or the help, or the version): only the exit code is left to choose.
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    return reportFailure(error);
  }
}

// `lifeline status | head`: a reader that stops early is no error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(ExitCode.ok);
  throw error;
});
process.exitCode = await main(process.argv.slice(2));
