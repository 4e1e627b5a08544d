// Rows read for many entities at once, put back with each entity: a bulk operation's reads are one statement for all
// its entities, and its rules are checked one entity at a time.

/** `rows` by `key`, each group in the rows' order (as `value` maps them, if given). */
export function groupedBy<T, V = T>(rows: readonly T[], key: (row: T) => string, value: (row: T) => V = (row) => row as unknown as V) {
  const groups = new Map<string, V[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(value(row));
    else groups.set(key(row), [value(row)]);
  }
  return groups;
}
