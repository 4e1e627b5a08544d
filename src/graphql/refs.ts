// Every entity's GraphQL object ref, declared once and implemented in its own
// file under types/. Type files that point at each other (a unit's machine, a
// machine's units) import the refs from here, never from each other.
import {
  type ApplicationRow,
  type CharmRow,
  loadApplications,
  loadCharms,
  loadMachines,
  loadModels,
  loadRelations,
  loadUnits,
  type MachineRow,
  type ModelRow,
  type RelationRow,
  type UnitRow,
} from "../model/index.js";
import { builder } from "./builder.js";
import { loaderFor } from "./loaders.js";

export const ModelRef = builder.loadableObjectRef<ModelRow, string>("Model", { load: loaderFor("model", loadModels) });
export const MachineRef = builder.loadableObjectRef<MachineRow, string>("Machine", { load: loaderFor("machine", loadMachines) });
export const CharmRef = builder.loadableObjectRef<CharmRow, string>("Charm", { load: loaderFor("charm", loadCharms) });
export const ApplicationRef = builder.loadableObjectRef<ApplicationRow, string>("Application", {
  load: loaderFor("application", loadApplications),
});
export const UnitRef = builder.loadableObjectRef<UnitRow, string>("Unit", { load: loaderFor("unit", loadUnits) });
export const RelationRef = builder.loadableObjectRef<RelationRow, string>("Relation", { load: loaderFor("relation", loadRelations) });
