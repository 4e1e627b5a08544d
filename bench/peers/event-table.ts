// The table PostGraphile and PostgreSQL itself are written through in bench/peers.ts: event(row_id, body,
// revision), whose trigger NOTIFYs each new or changed row, whole, on the topic `event:<row_id>`. Row 1 is the one
// the subscribers watch, row 2 the writer's warm-up row; the mutation comparison's clients each update a row of their
// own after them.
export const WATCHED_ROW = 1;
export const WARMUP_ROW = 2;

export const EVENT_TABLE = `
  create table event (row_id serial primary key, body text, revision bigint not null default 0);
  create function event_notify() returns trigger language plpgsql as $$
  begin
    perform pg_notify('event:' || new.row_id, json_build_object('row_id', new.row_id, 'body', new.body, 'revision', new.revision::text)::text);
    return new;
  end $$;
  create trigger event_notify after insert or update on event for each row execute function event_notify();
  insert into event (body) values ('watched'), ('warm-up');`;
