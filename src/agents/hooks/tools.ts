// Juju's hook tools (worker/uniter/runner/jujuc in juju/juju): each tool's
// options, defaults, output and errors, run against one hook's HookContext.
// As under Juju, a usage error (a bad option or argument) prints "ERROR ..."
// and exits 2, any other failure exits 1. Application relation data (--app on
// relation-get and relation-set) and application status are not in Lifeline
// yet: those options are refused with a message saying so.
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parse } from "yaml";
import { type HookContext, type LogLevel, type RelationRef, relationIdText, type WorkloadStatus, workloadStatuses } from "./context.js";
import { checkEmpty, HelpRequested, type OptionSpec, type ParsedCommandLine, parseCommandLine, spelled, UsageError } from "./flags.js";
import { type Format, formats, formatValue, isFormat } from "./format.js";

export const toolNames = [
  "relation-get",
  "relation-set",
  "relation-list",
  "relation-ids",
  "status-set",
  "unit-get",
  "juju-log",
  "config-get",
] as const;
export type ToolName = (typeof toolNames)[number];

export const isToolName = (name: string): name is ToolName => (toolNames as readonly string[]).includes(name);

/** The hook a tool call belongs to: the tools' defaults come from it. */
export interface ToolHook {
  unit: string;
  /** The hook's relation, in a relation hook: the default of -r. */
  relation?: RelationRef;
  /** The default unit of relation-get. */
  remoteUnit?: string;
  remoteApp?: string;
}

export interface ToolCall {
  args: readonly string[];
  /** The hook's working directory, for relative paths (--file, -o). */
  cwd: string;
  hook: ToolHook;
  context: HookContext;
  /** The tool's standard input, read only when a tool asks for it (relation-set --file -). */
  readStdin(): Promise<string>;
}

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface Tool {
  args: string;
  purpose: string;
  /** Whether the tool prints a value: it then takes --format and -o (outputOptions). */
  prints: boolean;
  options: readonly OptionSpec[];
  /** Runs the tool; what it returns is printed with --format (or -o). Throws UsageError (exit 2) or any Error (exit 1). */
  run(line: ParsedCommandLine, call: ToolCall, stderr: string[]): Promise<unknown>;
}

const relationOption: OptionSpec = { names: ["r", "relation"], kind: "string", help: "Specify a relation by id" };
/** The options of every tool that prints a value. */
const outputOptions: readonly OptionSpec[] = [
  { names: ["format"], kind: "string", help: `Specify output format (${[...formats].sort().join("|")})` },
  { names: ["o", "output"], kind: "string", help: "Specify an output file" },
];
/** relation-set and juju-log accept --format and ignore it, saying so (Juju deprecated it there). */
const deprecatedFormat: OptionSpec = { names: ["format"], kind: "string", help: "deprecated format flag" };

/** Application data bags and application status need leadership, which Lifeline does not have yet. */
const noApplicationData = "application relation data (--app) is not supported by Lifeline yet";

const isApplicationName = (name: string) => /^[a-z][a-z0-9]*(?:-[a-z0-9]*[a-z][a-z0-9]*)*$/.test(name);
const isUnitName = (name: string) => {
  const slash = name.lastIndexOf("/");
  return slash > 0 && isApplicationName(name.slice(0, slash)) && /^(?:0|[1-9][0-9]*)$/.test(name.slice(slash + 1));
};

/** -r: "db:2" or "2" (Juju reads the number after the last colon), which must be a relation of the unit; else the hook's relation. */
async function relationId(line: ParsedCommandLine, call: ToolCall): Promise<number> {
  const given = line.options.get("r");
  if (!given) {
    if (!call.hook.relation) throw new UsageError("no relation id specified");
    return call.hook.relation.id;
  }
  const number = given.value.slice(given.value.lastIndexOf(":") + 1);
  if (!/^[0-9]+$/.test(number)) throw new UsageError(`invalid value "${given.value}" for option ${given.spelled}: invalid relation id`);
  const relation = await call.context.relation(Number(number));
  if (!relation) throw new UsageError(`invalid value "${given.value}" for option ${given.spelled}: relation not found`);
  return relation.id;
}

const isSet = (line: ParsedCommandLine, name: string) => line.options.get(name)?.value === "true";

function warnDeprecatedFormat(line: ParsedCommandLine, tool: string, stderr: string[]): void {
  if (line.options.has("format")) stderr.push(`--format flag deprecated for command "${tool}"`);
}

/** The settings of a --file: a YAML map whose scalars are taken as written (yaml.v2 decoding into map[string]string). */
function settingsFile(text: string, path: string): Record<string, string> {
  const data: unknown = parse(text, { schema: "failsafe" });
  if (data === null || data === undefined || data === "") return {};
  if (typeof data !== "object" || Array.isArray(data)) throw new Error(`${path}: expected a YAML map of settings`);
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value !== null && typeof value !== "string") throw new Error(`${path}: the value of "${key}" is not a string`);
    settings[key] = value ?? "";
  }
  return settings;
}

/** juju/utils keyvalues.Parse, empty values allowed: key=value, trimmed, each key once. */
function keyValues(args: readonly string[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const arg of args) {
    const equals = arg.indexOf("=");
    if (equals === -1) throw new UsageError(`expected "key=value", got ${JSON.stringify(arg)}`);
    const key = arg.slice(0, equals).trim();
    const value = arg.slice(equals + 1).trim();
    if (key === "") throw new UsageError(`expected "key=value", got "${key}=${value}"`);
    if (key in settings) throw new UsageError(`key ${JSON.stringify(key)} specified more than once`);
    settings[key] = value;
  }
  return settings;
}

/** loggo's level names, as juju-log -l takes them. */
const logLevels: Record<string, LogLevel> = {
  TRACE: "DEBUG",
  DEBUG: "DEBUG",
  INFO: "INFO",
  WARN: "WARNING",
  WARNING: "WARNING",
  ERROR: "ERROR",
  CRITICAL: "CRITICAL",
};

const tools: Record<ToolName, Tool> = {
  "relation-get": {
    args: "[<key>|-] [<unit id>]",
    purpose: "get relation settings",
    prints: true,
    options: [
      ...outputOptions,
      relationOption,
      { names: ["app"], kind: "bool", help: "Get the relation data for the overall application" },
    ],
    async run(line, call) {
      const id = await relationId(line, call);
      if (isSet(line, "app")) throw new Error(noApplicationData);
      const [first, second, ...rest] = line.args;
      const key = first === undefined || first === "-" ? "" : first;
      let unit = second;
      if (unit === undefined) {
        unit = call.hook.remoteUnit;
        // Juju reads the remote application's data bag when the hook has no remote unit (relation-broken).
        if (unit === undefined && call.hook.remoteApp !== undefined) {
          throw new Error(`no unit specified, and the remote application's data: ${noApplicationData}`);
        }
        if (unit === undefined) throw new UsageError("no unit or application specified");
      } else if (!isUnitName(unit)) {
        throw new UsageError(
          isApplicationName(unit) ? `expected unit name, got application name "${unit}"` : `invalid unit name "${unit}"`,
        );
      }
      checkEmpty(rest);
      const settings = await call.context.relationGet(id, unit);
      if (key === "") return settings;
      return Object.hasOwn(settings, key) ? settings[key] : null;
    },
  },

  "relation-set": {
    args: "key=value [key=value ...]",
    purpose: "set relation settings",
    prints: false,
    options: [
      relationOption,
      { names: ["file"], kind: "string", help: 'file containing key-value pairs ("-" for standard input)' },
      { names: ["app"], kind: "bool", help: 'pick whether you are setting "application" settings or "unit" settings' },
      deprecatedFormat,
    ],
    async run(line, call, stderr) {
      const id = await relationId(line, call);
      let settings = keyValues(line.args);
      warnDeprecatedFormat(line, "relation-set", stderr);
      const file = line.options.get("file")?.value;
      if (file !== undefined) {
        const text = file === "-" ? await call.readStdin() : await readSettingsFile(resolve(call.cwd, file));
        // Arguments override the file's settings.
        settings = { ...settingsFile(text, file === "-" ? "<stdin>" : file), ...settings };
      }
      if (isSet(line, "app")) throw new Error(noApplicationData);
      if (Object.keys(settings).length > 0) call.context.relationSet(id, settings);
      return undefined;
    },
  },

  "relation-list": {
    args: "",
    purpose: "list relation units",
    prints: true,
    options: [
      ...outputOptions,
      relationOption,
      { names: ["app"], kind: "bool", help: "List remote application instead of participating units" },
    ],
    async run(line, call) {
      const id = await relationId(line, call);
      checkEmpty(line.args);
      if (isSet(line, "app")) return call.context.remoteApplication(id);
      return [...(await call.context.relationList(id))].sort();
    },
  },

  "relation-ids": {
    args: "[<name>]",
    purpose: "list all relation ids for the given endpoint",
    prints: true,
    options: outputOptions,
    async run(line, call) {
      const [given, ...rest] = line.args;
      const endpoint = given ?? call.hook.relation?.endpoint;
      if (endpoint === undefined) throw new UsageError("no endpoint name specified");
      checkEmpty(rest);
      const relations = await call.context.relationIds(endpoint);
      // Sorted as strings, as Juju sorts them.
      return relations.map(relationIdText).sort();
    },
  },

  "status-set": {
    args: "<maintenance | blocked | waiting | active> [message]",
    purpose: "set status information",
    prints: false,
    options: [
      {
        names: ["application"],
        kind: "bool",
        help: "set this status for the application to which the unit belongs if the unit is the leader",
      },
    ],
    async run(line, call) {
      const [status, message, ...rest] = line.args;
      if (status === undefined) throw new UsageError("invalid args, require <status> [message]");
      if (!(workloadStatuses as readonly string[]).includes(status)) {
        throw new UsageError(`invalid status "${status}", expected one of [${workloadStatuses.join(" ")}]`);
      }
      checkEmpty(rest);
      if (isSet(line, "application")) throw new Error("application status (--application) is not supported by Lifeline yet");
      await call.context.statusSet(status as WorkloadStatus, message ?? "");
      return undefined;
    },
  },

  "unit-get": {
    args: "<setting>",
    purpose: "print public-address or private-address",
    prints: true,
    options: outputOptions,
    async run(line, call) {
      const [key, ...rest] = line.args;
      if (key === undefined) throw new UsageError("no setting specified");
      if (key !== "private-address" && key !== "public-address") throw new UsageError(`unknown setting "${key}"`);
      checkEmpty(rest);
      return call.context.unitGet(key);
    },
  },

  "juju-log": {
    args: "<message>",
    purpose: "write a message to the juju log",
    prints: false,
    options: [
      { names: ["debug"], kind: "bool", help: "log at debug level" },
      { names: ["l", "log-level"], kind: "string", help: "Send log message at the given level" },
      deprecatedFormat,
    ],
    async run(line, call, stderr) {
      if (line.args.length === 0) throw new UsageError("no message specified");
      warnDeprecatedFormat(line, "juju-log", stderr);
      let level: LogLevel = "INFO";
      const given = line.options.get("l")?.value;
      if (isSet(line, "debug")) level = "DEBUG";
      else if (given !== undefined) {
        const known = logLevels[given.toUpperCase()];
        if (known) level = known;
        else await call.context.log("WARNING", `Specified log level of "${given}" is not valid`);
      }
      // In a relation hook Juju prefixes the relation id.
      const prefix = call.hook.relation ? `${relationIdText(call.hook.relation)}: ` : "";
      await call.context.log(level, `${prefix}${line.args.join(" ")}`);
      return undefined;
    },
  },

  "config-get": {
    args: "[<key>]",
    purpose: "print application configuration",
    prints: true,
    options: [...outputOptions, { names: ["a", "all"], kind: "bool", help: "print all keys" }],
    async run(line, call) {
      const [key, ...rest] = line.args;
      if (key !== undefined && key !== "" && isSet(line, "a")) throw new UsageError(`cannot use argument --all together with key "${key}"`);
      checkEmpty(rest);
      const settings = await call.context.configGet();
      if (key === undefined || key === "") return settings;
      return Object.hasOwn(settings, key) ? settings[key] : null;
    },
  },
};

async function readSettingsFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`open ${path}: ${code === "ENOENT" ? "no such file or directory" : String((error as Error).message)}`);
  }
}

function usage(name: ToolName): string {
  const tool = tools[name];
  const options = [...tool.options]
    .sort((a, b) => (a.names[0]! < b.names[0]! ? -1 : 1))
    .map((option) => {
      const names = option.names.map(spelled).join(", ");
      return `${option.kind === "string" ? `${names} <value>` : names}\n    ${option.help}`;
    });
  return `Usage: ${name} [options] ${tool.args}\n\nSummary:\n${tool.purpose}\n\nOptions:\n${options.join("\n")}\n`;
}

/** Runs one tool call against its hook's context, as Juju's cmd.Main runs a jujuc command. */
export async function runTool(name: string, call: ToolCall): Promise<ToolResult> {
  if (!isToolName(name)) return { code: 1, stdout: "", stderr: `ERROR bad request: unknown command: ${name}\n` };
  const tool = tools[name];
  const stderr: string[] = [];
  try {
    const line = parseCommandLine(call.args, tool.options);
    const format = line.options.get("format");
    if (format && tool.prints && !isFormat(format.value)) {
      throw new UsageError(`invalid value "${format.value}" for option --format: unknown format "${format.value}"`);
    }
    const value = await tool.run(line, call, stderr);
    let stdout = "";
    if (tool.prints) {
      const text = formatValue((format?.value ?? "smart") as Format, value);
      const output = line.options.get("o")?.value;
      if (output === undefined) stdout = text;
      else await writeFile(resolve(call.cwd, output), text);
    }
    return { code: 0, stdout, stderr: stderr.join("") };
  } catch (error) {
    if (error instanceof HelpRequested) return { code: 0, stdout: usage(name), stderr: "" };
    const message = error instanceof Error ? error.message : String(error);
    stderr.push(`ERROR ${message}\n`);
    return { code: error instanceof UsageError ? 2 : 1, stdout: "", stderr: stderr.join("") };
  }
}
