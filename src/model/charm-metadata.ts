// Charm metadata in Juju's metadata.yaml form, parsed and validated into the
// normalized shape the store keeps (endpoints as a flat list with roles).
import { parse as parseYaml, YAMLParseError } from "yaml";
import { LifelineError, shortQuote } from "../core/errors.js";
import type { Role, Scope } from "../core/relation.js";
import { checkCharmName, checkSeries, isRelationName } from "./names.js";

export interface CharmEndpoint {
  name: string;
  role: Role;
  interface: string;
  scope: Scope;
  /** The implicit juju-info endpoint every charm provides. */
  implicit: boolean;
}

export interface CharmMetadata {
  name: string;
  summary: string;
  description: string;
  subordinate: boolean;
  /** Supported series, preferred first; empty means any series. */
  series: string[];
  endpoints: CharmEndpoint[];
}

const sections = { provides: "provider", requires: "requirer", peers: "peer" } as const;

/** Every charm provides juju-info, so any principal can host a subordinate that requires it. */
const jujuInfo: CharmEndpoint = { name: "juju-info", role: "provider", interface: "juju-info", scope: "global", implicit: true };

const invalid = (message: string) => new LifelineError("INVALID_CHARM_METADATA", message);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optionalString(doc: Record<string, unknown>, key: string): string {
  const value = doc[key] ?? "";
  if (typeof value !== "string") throw invalid(`${shortQuote(key)} must be a string`);
  return value;
}

function parseEndpoint(section: keyof typeof sections, name: string, spec: unknown): CharmEndpoint {
  const where = `${section}.${name}`;
  if (!isRelationName(name)) throw invalid(`${where}: invalid relation name ${shortQuote(name)}`);
  if (name.startsWith("juju-")) throw invalid(`${where}: relation names starting with "juju-" are reserved`);
  const body = typeof spec === "string" ? { interface: spec } : spec;
  if (!isRecord(body)) throw invalid(`${where}: expected an interface name or a map with "interface"`);
  const iface = body.interface;
  if (typeof iface !== "string" || iface === "") throw invalid(`${where}: "interface" is required`);
  if (!isRelationName(iface)) throw invalid(`${where}: invalid interface name ${shortQuote(iface)}`);
  const role = sections[section];
  if (iface.startsWith("juju-") && role !== "requirer")
    throw invalid(`${where}: interface ${shortQuote(iface)} is reserved; charms may only require it`);
  const scope = body.scope ?? "global";
  if (scope !== "global" && scope !== "container")
    throw invalid(`${where}: scope must be "global" or "container", got ${shortQuote(String(scope))}`);
  return { name, role, interface: iface, scope, implicit: false };
}

/**
 * Bounds on metadata.yaml, far past any published charm's (the largest are a few KiB with a dozen or two
 * endpoints): beyond them parsing and storing a charm would be a lever on the server, not a charm.
 */
export const METADATA_LIMITS = { yamlBytes: 64 * 1024, endpoints: 100, series: 32 } as const;

/** Parses metadata.yaml; throws INVALID_CHARM_METADATA with the reason (and YAML position) on bad input. */
export function parseCharmMetadata(text: string): CharmMetadata {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > METADATA_LIMITS.yamlBytes) throw invalid(`metadata is ${bytes} bytes; at most ${METADATA_LIMITS.yamlBytes} are accepted`);
  let doc: unknown;
  try {
    // yaml refuses an alias bomb itself (more than 100 aliases: a ReferenceError, not a YAMLParseError).
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof YAMLParseError) throw invalid(`metadata is not valid YAML: ${error.message}`);
    if (error instanceof Error) throw invalid(`metadata could not be read: ${error.message}`);
    throw error;
  }
  if (!isRecord(doc)) throw invalid('metadata must be a YAML map with at least a "name"');
  if (typeof doc.name !== "string") throw invalid('"name" is required and must be a string');
  const name = checkCharmName(doc.name);

  const subordinate = doc.subordinate ?? false;
  if (typeof subordinate !== "boolean") throw invalid('"subordinate" must be true or false');

  const seriesValue = doc.series ?? [];
  if (!Array.isArray(seriesValue) || seriesValue.some((s) => typeof s !== "string"))
    throw invalid('"series" must be a list of series names');
  if (seriesValue.length > METADATA_LIMITS.series) throw invalid(`"series" names at most ${METADATA_LIMITS.series} series`);
  const series = seriesValue.map((s: string) => {
    try {
      return checkSeries(s);
    } catch {
      throw invalid(`"series": invalid series name ${shortQuote(s)}`);
    }
  });

  const endpoints: CharmEndpoint[] = [];
  for (const section of Object.keys(sections) as (keyof typeof sections)[]) {
    const entries = doc[section] ?? {};
    if (!isRecord(entries)) throw invalid(`${shortQuote(section)} must be a map of relation names`);
    for (const [relation, spec] of Object.entries(entries)) {
      if (endpoints.length >= METADATA_LIMITS.endpoints) throw invalid(`a charm has at most ${METADATA_LIMITS.endpoints} endpoints`);
      if (endpoints.some((e) => e.name === relation)) throw invalid(`relation name ${shortQuote(relation)} is used more than once`);
      endpoints.push(parseEndpoint(section, relation, spec));
    }
  }
  if (subordinate && !endpoints.some((e) => e.role === "requirer" && e.scope === "container"))
    throw invalid(`subordinate charm ${shortQuote(name)} lacks a "requires" relation with container scope`);
  endpoints.push({ ...jujuInfo });

  return { name, summary: optionalString(doc, "summary"), description: optionalString(doc, "description"), subordinate, series, endpoints };
}
