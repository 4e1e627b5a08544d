// The reference invariants every serial history keeps (seed 001 "References"):
// checked after races to prove they ended in one of the serial outcomes.
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { rowsOf, type Store } from "../../src/db/connect.js";

async function rows<T>(store: Store, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await store.db.execute(query);
  return rowsOf<T>(result);
}

/** For models where nothing was forced (force may leave a Dead machine with no units, which is fine, but not the reverse). */
export async function expectInvariants(store: Store, model: string) {
  const m = sql`(select id from models where name = ${model})`;
  const violations = {
    // Refcounts match rows.
    unitCounts: await rows(
      store,
      sql`
      select a.name, a.unit_count, count(u.name)::int as actual from applications a
      left join units u on u.model_id = a.model_id and u.application = a.name
      where a.model_id = ${m} group by a.name, a.unit_count having a.unit_count <> count(u.name)`,
    ),
    relationCounts: await rows(
      store,
      sql`
      select a.name, a.relation_count, count(e.relation_id)::int as actual from applications a
      left join relation_endpoints e on e.model_id = a.model_id and e.application = a.name
      where a.model_id = ${m} group by a.name, a.relation_count having a.relation_count <> count(e.relation_id)`,
    ),
    scopeCounts: await rows(
      store,
      sql`
      select r.id, r.unit_count, count(s.unit)::int as actual from relations r
      left join relation_scopes s on s.model_id = r.model_id and s.relation_id = r.id
      where r.model_id = ${m} group by r.id, r.unit_count having r.unit_count <> count(s.unit)`,
    ),
    // Nothing left that should have been removed with its last reference.
    unheldDyingApplications: await rows(
      store,
      sql`
      select name from applications where model_id = ${m} and life <> 'alive' and unit_count = 0 and relation_count = 0`,
    ),
    emptyDyingRelations: await rows(
      store,
      sql`
      select id from relations where model_id = ${m} and life <> 'alive' and unit_count = 0`,
    ),
    // Relations of removed applications, units of removed applications, members of removed relations.
    orphanEndpoints: await rows(
      store,
      sql`
      select e.relation_id from relation_endpoints e left join applications a on a.model_id = e.model_id and a.name = e.application
      where e.model_id = ${m} and a.name is null`,
    ),
    orphanUnits: await rows(
      store,
      sql`
      select u.name from units u left join applications a on a.model_id = u.model_id and a.name = u.application
      where u.model_id = ${m} and a.name is null`,
    ),
    orphanMembers: await rows(
      store,
      sql`
      select s.unit from relation_scopes s left join relations r on r.model_id = s.model_id and r.id = s.relation_id
      where s.model_id = ${m} and r.id is null`,
    ),
    relationsWithoutEndpoints: await rows(
      store,
      sql`
      select r.id from relations r left join relation_endpoints e on e.model_id = r.model_id and e.relation_id = r.id
      where r.model_id = ${m} and e.relation_id is null`,
    ),
    // "While principal units are assigned to a machine, its lifecycle cannot change" (without force).
    unitsOnMachinesNotAlive: await rows(
      store,
      sql`
      select u.name from units u join machines ma on ma.model_id = u.model_id and ma.id = u.machine_id
      where u.model_id = ${m} and ma.life <> 'alive'`,
    ),
    // Life never went backwards, entity by entity, in commit order.
    lifeRegressions: await rows(
      store,
      sql`
      select kind, entity from (
        select kind, entity, life, lag(life) over (partition by kind, entity order by revision) as before
        from changes where model_id = ${m} and life is not null and not removed
      ) t where life < before`,
    ),
  };
  expect(violations).toEqual({
    unitCounts: [],
    relationCounts: [],
    scopeCounts: [],
    unheldDyingApplications: [],
    emptyDyingRelations: [],
    orphanEndpoints: [],
    orphanUnits: [],
    orphanMembers: [],
    relationsWithoutEndpoints: [],
    unitsOnMachinesNotAlive: [],
    lifeRegressions: [],
  });
}
