// Hook tools parse their command lines as Juju's do (github.com/juju/gnuflag):
// options and arguments may be interspersed, "--" ends the options, a long
// option is "--name" or "--name=value", single-letter options may be combined
// ("-r2", "-r 2"), and the messages are gnuflag's, so a charm sees the errors it
// would see under Juju.

/** A usage error: the tool prints it and exits 2, as Juju's cmd.Main does for errors before the command runs. */
export class UsageError extends Error {}

/** -h or --help: the tool prints its usage and exits 0. */
export class HelpRequested extends Error {}

export interface OptionSpec {
  /** The option's names; the first is the one its value is found under. "r" is given as -r, "relation" as --relation. */
  names: readonly string[];
  /** A bool option takes no value; a string option takes the next argument (or "=value", or the rest of "-r2"). */
  kind: "bool" | "string";
  /** For usage: what the option does. */
  help: string;
}

/** An option as given: its value, and the spelling used, for messages ("invalid value ... for option --relation"). */
export interface GivenOption {
  value: string;
  spelled: string;
}

export interface ParsedCommandLine {
  /** By each option's first name; a repeated option keeps its last value. */
  options: Map<string, GivenOption>;
  args: string[];
}

export const spelled = (name: string): string => (name.length > 1 ? `--${name}` : `-${name}`);

export function parseCommandLine(argv: readonly string[], specs: readonly OptionSpec[]): ParsedCommandLine {
  const byName = new Map(specs.flatMap((spec) => spec.names.map((name) => [name, spec] as const)));
  const options = new Map<string, GivenOption>();
  const args: string[] = [];
  const pending = [...argv];

  const give = (name: string, inline: string | undefined) => {
    const spec = byName.get(name);
    if (!spec) {
      if (name === "h" || name === "help") throw new HelpRequested();
      throw new UsageError(`option provided but not defined: ${spelled(name)}`);
    }
    let value: string;
    if (spec.kind === "bool") {
      value = inline ?? "true";
      if (value !== "true" && value !== "false")
        throw new UsageError(`invalid value "${value}" for option ${spelled(name)}: not a boolean`);
    } else if (inline !== undefined) {
      value = inline;
    } else {
      const next = pending.shift();
      if (next === undefined) throw new UsageError(`option needs an argument: ${spelled(name)}`);
      value = next;
    }
    options.set(spec.names[0]!, { value, spelled: spelled(name) });
  };

  while (pending.length > 0) {
    const arg = pending.shift()!;
    if (arg === "--") {
      args.push(...pending.splice(0));
    } else if (arg === "-" || !arg.startsWith("-")) {
      args.push(arg);
    } else if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      if (equals === -1) give(arg.slice(2), undefined);
      else give(arg.slice(2, equals), arg.slice(equals + 1));
    } else {
      // Single letters, combined: each bool letter stands alone; a string option takes the rest as its value.
      let rest = arg.slice(1);
      while (rest.length > 0) {
        const letter = rest[0]!;
        rest = rest.slice(1);
        if (byName.get(letter)?.kind === "string" && rest.length > 0) {
          give(letter, rest.startsWith("=") ? rest.slice(1) : rest);
          break;
        }
        give(letter, undefined);
      }
    }
  }
  return { options, args };
}

/** Juju's cmd.CheckEmpty: arguments left over are an error. */
export function checkEmpty(args: readonly string[]): void {
  if (args.length > 0) throw new UsageError(`unrecognized args: [${args.map((arg) => JSON.stringify(arg)).join(" ")}]`);
}
