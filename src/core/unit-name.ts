// A unit is named `<application>/<number>` (Juju's names.UnitApplication): the application is
// what comes before the last slash. Shared by the model, the change log and the unit agents,
// for names already checked (src/model/names.ts refuses a malformed one).

/** The application a unit name belongs to. */
export const applicationOfUnit = (unit: string) => unit.slice(0, unit.lastIndexOf("/"));
