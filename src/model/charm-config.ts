// Charm config in Juju's config.yaml form (`options: { name: { type, default,
// description } }`), parsed and validated into the options the store keeps, and
// `juju config`'s key=value strings checked and coerced against them.
import { parse as parseYaml, YAMLParseError } from "yaml";
import { type ConfigOption, type ConfigOptions, type ConfigSettings, type ConfigValue, configOptionTypes } from "../core/config.js";
import { LifelineError, tooManyACall } from "../core/errors.js";

/** Bounds on config.yaml and on an application's settings. */
export const CONFIG_LIMITS = { yamlBytes: 64 * 1024, options: 200, valueBytes: 16 * 1024 } as const;

const optionName = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/;

const invalid = (message: string) => new LifelineError("INVALID_CHARM_CONFIG", `config.yaml: ${message}`);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A default must already be of its option's type (YAML gives it one); an int serves a float. */
function typed(type: ConfigOption["type"], value: unknown): ConfigValue | undefined {
  switch (type) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "int":
      return typeof value === "number" && Number.isSafeInteger(value) ? value : undefined;
    case "float":
      return typeof value === "number" && Number.isFinite(value) ? value : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
  }
}

/** Parses config.yaml; INVALID_CHARM_CONFIG with the reason on bad input. An empty file has no options. */
export function parseCharmConfig(text: string): ConfigOptions {
  if (Buffer.byteLength(text, "utf8") > CONFIG_LIMITS.yamlBytes) throw invalid(`at most ${CONFIG_LIMITS.yamlBytes} bytes`);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    if (error instanceof YAMLParseError) throw invalid(`not valid YAML: ${error.message}`);
    if (error instanceof Error) throw invalid(`could not be read: ${error.message}`);
    throw error;
  }
  if (doc == null) return {};
  if (!isRecord(doc)) throw invalid('expected a map with "options"');
  const entries = doc.options ?? {};
  if (!isRecord(entries)) throw invalid('"options" must be a map of option names');
  if (Object.keys(entries).length > CONFIG_LIMITS.options) throw invalid(`at most ${CONFIG_LIMITS.options} options`);
  const options: [string, ConfigOption][] = [];
  for (const [name, spec] of Object.entries(entries)) {
    if (!optionName.test(name)) throw invalid(`invalid option name "${name.slice(0, 100)}"`);
    if (!isRecord(spec)) throw invalid(`option "${name}": expected a map with "type", "default" and "description"`);
    const type = spec.type ?? "string";
    if (!configOptionTypes.includes(type as ConfigOption["type"]))
      throw invalid(`option "${name}": type must be one of ${configOptionTypes.join(", ")}, got "${String(type)}"`);
    const description = spec.description ?? "";
    if (typeof description !== "string") throw invalid(`option "${name}": "description" must be a string`);
    const option: ConfigOption = { type: type as ConfigOption["type"], description };
    if (spec.default != null) {
      const value = typed(option.type, spec.default);
      if (value === undefined) throw invalid(`option "${name}": default ${JSON.stringify(spec.default)} is not a ${option.type}`);
      option.default = value;
    }
    options.push([name, option]);
  }
  return Object.fromEntries(options);
}

const booleans: Record<string, boolean> = { true: true, True: true, TRUE: true, t: true, T: true, "1": true };
for (const no of ["false", "False", "FALSE", "f", "F", "0"]) booleans[no] = false;

/** `juju config`'s string for an option, coerced to its type (as Juju's option.parse does); INVALID_ARGUMENT when it is not one. */
export function coerceConfigValue(name: string, option: ConfigOption, value: string): ConfigValue {
  const bad = () =>
    new LifelineError("INVALID_ARGUMENT", `config option "${name}" is a ${option.type}: "${value.slice(0, 100)}" is not one`, {
      key: name,
    });
  if (Buffer.byteLength(value, "utf8") > CONFIG_LIMITS.valueBytes)
    throw new LifelineError("INVALID_ARGUMENT", `config option "${name}": at most ${CONFIG_LIMITS.valueBytes} bytes`, { key: name });
  switch (option.type) {
    case "string":
      return value;
    case "int": {
      const n = Number(value.trim());
      if (!/^\s*[+-]?\d+\s*$/.test(value) || !Number.isSafeInteger(n)) throw bad();
      return n;
    }
    case "float": {
      const n = Number(value.trim());
      if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value) || !Number.isFinite(n)) throw bad();
      return n;
    }
    case "boolean": {
      const b = booleans[value.trim()];
      if (b === undefined) throw bad();
      return b;
    }
  }
}

/** The string form of a value, as `juju config` prints and takes it. */
export const formatConfigValue = (value: ConfigValue) => String(value);

/**
 * New settings: `current` with `values` set (coerced) and `reset` keys removed.
 * Every key must be an option of the charm; a key given twice, or both set and
 * reset, is refused. Checked whole before anything is written.
 */
export function applyConfigChanges(
  application: string,
  options: ConfigOptions,
  current: ConfigSettings,
  values: readonly { key: string; value: string }[],
  reset: readonly string[] = [],
): ConfigSettings {
  // No charm has more options: a longer list only costs its checks (and was 200,000 settings in the issue).
  for (const list of [values, reset])
    if (list.length > CONFIG_LIMITS.options) throw tooManyACall("settings", CONFIG_LIMITS.options, list.length);
  const seen = new Set<string>();
  const known = (key: string) => {
    if (!Object.hasOwn(options, key)) {
      const names = Object.keys(options).sort();
      throw new LifelineError(
        "INVALID_ARGUMENT",
        `application "${application}" has no config option "${key.slice(0, 100)}"${names.length ? ` (its options: ${names.join(", ")})` : " (its charm has no options)"}`,
        { key: key.slice(0, 100) },
      );
    }
    if (seen.has(key)) throw new LifelineError("INVALID_ARGUMENT", `config option "${key}" is given more than once`, { key });
    seen.add(key);
    return options[key]!;
  };
  const next = new Map(Object.entries(current));
  for (const { key, value } of values) next.set(key, coerceConfigValue(key, known(key), value));
  for (const key of reset) {
    known(key);
    next.delete(key);
  }
  return Object.fromEntries([...next].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
