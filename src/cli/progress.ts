// A live progress line for a command that waits (`wait-for`, `destroy-model`): a spinner and the latest state,
// rewritten in place on stderr. Only when both stdout and stderr are a terminal (and not under CI, nor TERM=dumb):
// piped or captured output gets none of it, so scripts and logs read only the commands' own lines. nanospinner draws
// it (tiny, no dependency but picocolors, which we already use; it animates only when stdout is a terminal).
import { createSpinner, type Spinner } from "nanospinner";

export interface Progress {
  /** Replaces the line's text. */
  update(text: string): void;
  /** Clears the line (the command prints its outcome itself). */
  stop(): void;
}

const silent: Progress = { update() {}, stop() {} };

export function progress(text: string, stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): Progress {
  // A terminal of no known width (a pty never sized) gets none either: the spinner counts the rows to rewrite by it.
  if (!stream.isTTY || !process.stdout.isTTY || !stream.columns || env.TERM === "dumb" || "CI" in env) return silent;
  // A line longer than the terminal wraps, and rewriting in place then leaves its first rows behind: keep it to one row.
  const oneRow = (line: string) => {
    const width = Math.max(20, stream.columns - 3);
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };
  const spinner: Spinner = createSpinner(oneRow(text), { stream, color: "cyan" }).start();
  let stopped = false;
  return {
    update(line) {
      if (!stopped) spinner.update({ text: oneRow(line) });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      spinner.stop(); // no text: clears the line and shows the cursor again
    },
  };
}
