// What the server counted, read from its /metrics: the mutations it ran by root field (lifeline_mutations_total, every
// outcome) and the time it spent in each (lifeline_mutation_duration_seconds_sum), the events its streams delivered
// (each subscriber's copy) and the change rows its feed read. A phase's difference says which fields its agents asked
// for, how often a unit, and how much fan-out a unit cost. A bulk call counts once.
import { ADMIN_TOKEN } from "./lifeline-process.js";

export interface FieldFigures {
  calls: number;
  seconds: number;
}

export interface ServerCounts {
  mutations: Map<string, FieldFigures>;
  /** lifeline_stream_deliveries_total. */
  deliveries: number;
  /** lifeline_change_feed_events_read_total. */
  eventsRead: number;
}

export interface CountedSince {
  /** By field, busiest first. */
  mutations: [string, FieldFigures][];
  deliveries: number;
  eventsRead: number;
}

const MUTATIONS = /^lifeline_mutations_total\{([^}]*)\} (\S+)$/;
const DURATION = /^lifeline_mutation_duration_seconds_sum\{([^}]*)\} (\S+)$/;
const FIELD = /mutation="([^"]+)"/;
const TOTAL = /^(lifeline_stream_deliveries_total|lifeline_change_feed_events_read_total) (\S+)$/;

/** The server's counts now (graphqlUrl: its API's address; /metrics is beside it, behind the admin token). */
export async function serverCounts(graphqlUrl: string): Promise<ServerCounts> {
  const response = await fetch(new URL("/metrics", graphqlUrl), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (!response.ok) throw new Error(`GET /metrics: ${response.status}`);
  const counts: ServerCounts = { mutations: new Map(), deliveries: 0, eventsRead: 0 };
  const of = (field: string) => {
    const figures = counts.mutations.get(field) ?? { calls: 0, seconds: 0 };
    counts.mutations.set(field, figures);
    return figures;
  };
  for (const line of (await response.text()).split("\n")) {
    const total = TOTAL.exec(line);
    if (total) {
      if (total[1] === "lifeline_stream_deliveries_total") counts.deliveries = Number(total[2]);
      else counts.eventsRead = Number(total[2]);
      continue;
    }
    const counted = MUTATIONS.exec(line) ?? DURATION.exec(line);
    const field = counted && FIELD.exec(counted[1]!)?.[1];
    if (!counted || !field) continue;
    if (line.startsWith("lifeline_mutations_total")) of(field).calls += Number(counted[2]);
    else of(field).seconds += Number(counted[2]);
  }
  return counts;
}

/** What `after` counted since `before`. */
export function countedSince(before: ServerCounts, after: ServerCounts): CountedSince {
  const mutations = [...after.mutations]
    .map(([field, now]): [string, FieldFigures] => {
      const then = before.mutations.get(field) ?? { calls: 0, seconds: 0 };
      return [field, { calls: now.calls - then.calls, seconds: now.seconds - then.seconds }];
    })
    .filter(([, figures]) => figures.calls > 0)
    .sort(([, a], [, b]) => b.calls - a.calls);
  return { mutations, deliveries: after.deliveries - before.deliveries, eventsRead: after.eventsRead - before.eventsRead };
}
