// Charm config in Juju's terms (config.yaml's `options`, `juju config`): typed
// options with defaults, and an application's settings over them. Shared by
// the model, which validates them, and the change log, which carries the
// effective config to unit agents.

export const configOptionTypes = ["string", "int", "float", "boolean"] as const;
export type ConfigOptionType = (typeof configOptionTypes)[number];

export type ConfigValue = string | number | boolean;

export interface ConfigOption {
  type: ConfigOptionType;
  /** Absent: the option is unset until an application sets it. */
  default?: ConfigValue;
  description: string;
}

/** A charm's options, by name. */
export type ConfigOptions = Record<string, ConfigOption>;

/** An application's settings (or its effective config), by option name. */
export type ConfigSettings = Record<string, ConfigValue>;

/** What `config-get` shows: each option's setting, else its default; options with neither are left out. Keys sorted. */
export function effectiveConfig(options: ConfigOptions, settings: ConfigSettings): ConfigSettings {
  const effective: [string, ConfigValue][] = [];
  for (const name of Object.keys(options).sort()) {
    const value = Object.hasOwn(settings, name) ? settings[name] : options[name]!.default;
    if (value !== undefined) effective.push([name, value]);
  }
  return Object.fromEntries(effective);
}
