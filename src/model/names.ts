// Juju's identifier grammar, checked at the edge so malformed ids get
// INVALID_ID / INVALID_NAME instead of a confusing NOT_FOUND.
import { LifelineError } from "../core/errors.js";

const applicationName = /^[a-z][a-z0-9]*(?:-[a-z0-9]*[a-z][a-z0-9]*)*$/;
const modelName = /^[a-z0-9][a-z0-9-]{0,62}$/;
const unitName = /^([a-z][a-z0-9]*(?:-[a-z0-9]*[a-z][a-z0-9]*)*)\/(0|[1-9][0-9]*)$/;
const machineId = /^(?:0|[1-9][0-9]*)(?:\/(?:lxd|kvm)\/(?:0|[1-9][0-9]*))*$/;
const seriesName = /^[a-z][a-z0-9.-]*$/;
const relationName = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/;

export function checkApplicationName(name: string): string {
  if (!applicationName.test(name))
    throw new LifelineError(
      "INVALID_NAME",
      `invalid application name "${name}": use lower-case letters, digits and single hyphens, starting with a letter and not ending in a digit-only segment (e.g. "wordpress", "my-db")`,
    );
  return name;
}

export function checkCharmName(name: string): string {
  if (!applicationName.test(name))
    throw new LifelineError("INVALID_CHARM_METADATA", `invalid charm name "${name}": same rules as application names`);
  return name;
}

export function checkModelName(name: string): string {
  if (!modelName.test(name))
    throw new LifelineError(
      "INVALID_NAME",
      `invalid model name "${name}": use lower-case letters, digits and hyphens (at most 63), starting with a letter or digit`,
    );
  return name;
}

/** Splits "wordpress/3" into its application and number. */
export function parseUnitName(name: string): { application: string; number: number } {
  const match = unitName.exec(name);
  if (!match) throw new LifelineError("INVALID_ID", `invalid unit name "${name}": expected <application>/<number>, e.g. "wordpress/0"`);
  return { application: match[1]!, number: Number(match[2]) };
}

export function checkMachineId(id: string): string {
  if (!machineId.test(id))
    throw new LifelineError("INVALID_ID", `invalid machine id "${id}": expected "<n>" or a container id such as "1/lxd/0"`);
  return id;
}

export function checkSeries(series: string): string {
  if (!seriesName.test(series))
    throw new LifelineError("INVALID_ARGUMENT", `invalid series "${series}": expected a name such as "jammy" or "noble"`);
  return series;
}

export function isRelationName(name: string) {
  return relationName.test(name);
}
