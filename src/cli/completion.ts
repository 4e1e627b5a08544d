// Shell completion scripts, generated from the commander program tree, so a new command or option completes without
// anything to keep in step: commands after `lifeline`, each command's options after a `-`, an option's choices
// (--format) after it, command names after `help`. Positional arguments (names of units, machines…) are not completed.
import type { Command, Option } from "commander";

interface Flag {
  names: string[];
  description: string;
  /** Takes a value: the word after it is that value, not a command or option. */
  takesValue: boolean;
  choices: string[];
}

interface CommandSpec {
  name: string;
  description: string;
  flags: Flag[];
}

/** Words that go into the scripts unquoted must be plain: names of commands, options and choices are. */
function plain(word: string): string {
  if (!/^[-\w.]+$/.test(word)) throw new Error(`cannot complete ${JSON.stringify(word)}: not a plain word`);
  return word;
}

/** A description's first line, cut at a word near 70 characters: zsh shows it beside the candidate. */
function summary(text: string): string {
  const line = text.split("\n")[0]!.replace(/\s+/g, " ");
  return line.length <= 70 ? line : `${line.slice(0, line.lastIndexOf(" ", 69))} …`;
}

function flags(command: Command): Flag[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .map((option: Option) => ({
      names: [option.short, option.long].filter((n): n is string => Boolean(n)).map(plain),
      description: summary(option.description),
      takesValue: option.required || option.optional,
      choices: (option.argChoices ?? []).map(plain),
    }));
}

function describe(program: Command): { global: Flag[]; commands: CommandSpec[] } {
  const commands = program
    .createHelp()
    .visibleCommands(program)
    .map((command) => ({ name: plain(command.name()), description: summary(command.description()), flags: flags(command) }));
  return { global: flags(program), commands };
}

const words = (list: string[]) => list.join(" ");
const valueFlags = (list: Flag[]) => list.filter((f) => f.takesValue).flatMap((f) => f.names);

/** Case arms completing the word after an option that takes a value: its choices, else nothing to offer. */
function valueArms(list: Flag[], assign: (words: string[]) => string, indent: string): string[] {
  return list.filter((f) => f.takesValue).map((f) => `${indent}${f.names.join("|")}) ${assign(f.choices)} ;;`);
}

export function bashCompletion(program: Command): string {
  const { global, commands } = describe(program);
  const name = program.name();
  const set = (list: string[]) => `candidates="${words(list)}"`;
  const arms = commands.map((command) => {
    const options = command.flags.flatMap((f) => f.names);
    const positional = command.name === "help" ? set(commands.map((c) => c.name)) : set([]);
    return [
      `    ${command.name})`,
      "      case $prev in",
      ...valueArms(command.flags, set, "        "),
      `        *) if [[ $cur == -* ]]; then ${set(options)}; else ${positional}; fi ;;`,
      "      esac ;;",
    ].join("\n");
  });
  return `# ${name} completion for bash: add \`source <(${name} completion bash)\` to ~/.bashrc
_${name}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} command="" candidates="" i
  # The command is the first word that is neither an option nor a global option's value.
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in
      ${valueFlags(global).join("|") || "--"}) ((i++)) ;;
      -*) ;;
      *) command=\${COMP_WORDS[i]}; break ;;
    esac
  done
  case $command in
    "")
      case $prev in
${valueArms(global, set, "        ").join("\n")}
        *) if [[ $cur == -* ]]; then ${set(global.flatMap((f) => f.names))}; else ${set(commands.map((c) => c.name))}; fi ;;
      esac ;;
${arms.join("\n")}
  esac
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
complete -F _${name} ${name}
`;
}

/** zsh's _describe takes name:description; a description is single-quoted, a name's colons escaped. */
function described(entries: { name: string; description: string }[]): string {
  const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  return `(${entries.map((e) => quoted(`${e.name.replaceAll(":", "\\:")}:${e.description}`)).join(" ")})`;
}

export function zshCompletion(program: Command): string {
  const { global, commands } = describe(program);
  const name = program.name();
  const flagEntries = (list: Flag[]) => list.flatMap((f) => f.names.map((n) => ({ name: n, description: f.description })));
  const set = (entries: { name: string; description: string }[]) => `candidates=${described(entries)}`;
  const choices = (list: string[]) => set(list.map((choice) => ({ name: choice, description: choice })));
  const commandEntries = commands.map((c) => ({ name: c.name, description: c.description }));
  const arms = commands.map((command) => {
    const positional = command.name === "help" ? set(commandEntries) : "candidates=()";
    return [
      `    ${command.name})`,
      "      case $prev in",
      ...valueArms(command.flags, choices, "        "),
      `        *) if [[ $cur == -* ]]; then ${set(flagEntries(command.flags))}; else ${positional}; fi ;;`,
      "      esac ;;",
    ].join("\n");
  });
  return `#compdef ${name}
# ${name} completion for zsh: add \`source <(${name} completion zsh)\` to ~/.zshrc after compinit,
# or save it as _${name} in a directory of $fpath.
_${name}() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]} command="" i
  local -a candidates
  # The command is the first word that is neither an option nor a global option's value.
  for ((i = 2; i < CURRENT; i++)); do
    case \${words[i]} in
      ${valueFlags(global).join("|") || "--"}) ((i++)) ;;
      -*) ;;
      *) command=\${words[i]}; break ;;
    esac
  done
  case $command in
    "")
      case $prev in
${valueArms(global, choices, "        ").join("\n")}
        *) if [[ $cur == -* ]]; then ${set(flagEntries(global))}; else ${set(commandEntries)}; fi ;;
      esac ;;
${arms.join("\n")}
  esac
  (( \${#candidates} )) && _describe '${name}' candidates
}
if [[ \${funcstack[1]} == _${name} ]]; then _${name} "$@"; else compdef _${name} ${name}; fi
`;
}
