// The server's own count of mutations by root field, read from its /metrics (lifeline_mutations_total, every
// outcome), and the time it spent in each (lifeline_mutation_duration_seconds_sum): a phase's difference says which
// fields its agents asked for, how often a unit, and where the server's mutation time went. A bulk call counts once.
import { ADMIN_TOKEN } from "./lifeline-process.js";

export interface FieldFigures {
  calls: number;
  seconds: number;
}

export type MutationCounts = Map<string, FieldFigures>;

const COUNTER = /^lifeline_mutations_total\{([^}]*)\} (\S+)$/;
const DURATION = /^lifeline_mutation_duration_seconds_sum\{([^}]*)\} (\S+)$/;
const FIELD = /mutation="([^"]+)"/;

/** The server's figures now (graphqlUrl: its API's address; /metrics is beside it, behind the admin token). */
export async function mutationCounts(graphqlUrl: string): Promise<MutationCounts> {
  const response = await fetch(new URL("/metrics", graphqlUrl), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`GET /metrics: ${response.status}`);
  const counts: MutationCounts = new Map();
  const of = (field: string) => {
    const figures = counts.get(field) ?? { calls: 0, seconds: 0 };
    counts.set(field, figures);
    return figures;
  };
  for (const line of (await response.text()).split("\n")) {
    const counted = COUNTER.exec(line) ?? DURATION.exec(line);
    const field = counted && FIELD.exec(counted[1]!)?.[1];
    if (!counted || !field) continue;
    if (line.startsWith("lifeline_mutations_total")) of(field).calls += Number(counted[2]);
    else of(field).seconds += Number(counted[2]);
  }
  return counts;
}

/** What `after` counted since `before`, by field, busiest first. */
export function countedSince(before: MutationCounts, after: MutationCounts): [string, FieldFigures][] {
  return [...after]
    .map(([field, now]): [string, FieldFigures] => {
      const then = before.get(field) ?? { calls: 0, seconds: 0 };
      return [field, { calls: now.calls - then.calls, seconds: now.seconds - then.seconds }];
    })
    .filter(([, figures]) => figures.calls > 0)
    .sort(([, a], [, b]) => b.calls - a.calls);
}
