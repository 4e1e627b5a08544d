// The few protobuf messages of etcd's API the benchmark sends and reads, by hand: a
// WatchRequest's create_request and a PutRequest to send, and in a WatchResponse or a
// PutResponse only the revisions. Reading them this way costs the measuring side (which
// shares the machine's cores with the servers it measures) a walk over a few bytes an
// event, where a generated decoder would build every message's objects.

/** A varint field (wire type 0) or a length-delimited one (wire type 2), as bytes. */
const tag = (field: number, wire: 0 | 2) => (field << 3) | wire;

function varintBytes(value: number): number[] {
  const out: number[] = [];
  while (value > 0x7f) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return out;
}

const bytesField = (field: number, bytes: Buffer) => Buffer.concat([Buffer.from([tag(field, 2), ...varintBytes(bytes.length)]), bytes]);

/** WatchRequest { create_request (1): WatchCreateRequest { key (1) } }. */
export const watchCreateRequest = (key: Buffer) => bytesField(1, bytesField(1, key));

/** PutRequest { key (1), value (2) }. */
export const putRequest = (key: Buffer, value: Buffer) => Buffer.concat([bytesField(1, key), bytesField(2, value)]);

/**
 * Calls `visit` for each field of the message in `buf[start, end)`: its number, and for a varint its value (as a
 * double: exact to 2^53), for a length-delimited field its bytes' start and end. Other wire types are skipped.
 */
function walk(buf: Buffer, start: number, end: number, visit: (field: number, value: number, from: number, to: number) => void): void {
  let pos = start;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = buf[pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  while (pos < end) {
    const key = varint();
    const field = Math.floor(key / 8);
    switch (key & 7) {
      case 0:
        visit(field, varint(), 0, 0);
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const length = varint();
        visit(field, Number.NaN, pos, pos + length);
        pos += length;
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        throw new Error(`protobuf: wire type ${key & 7} at ${pos}`);
    }
  }
}

/** A WatchResponse: whether it says a watch was created, and each event's kv.mod_revision. */
export function readWatchResponse(buf: Buffer, onCreated: () => void, onEvent: (revision: number) => void): void {
  walk(buf, 0, buf.length, (field, value, from, to) => {
    if (field === 3 && value === 1) onCreated();
    else if (field === 11)
      // Event { kv (2): KeyValue { mod_revision (3) } }
      walk(buf, from, to, (f, _, kvFrom, kvTo) => {
        if (f === 2)
          walk(buf, kvFrom, kvTo, (k, revision) => {
            if (k === 3) onEvent(revision);
          });
      });
  });
}

/** A PutResponse's header.revision: the revision the put made. */
export function putRevision(buf: Buffer): number {
  let revision = Number.NaN;
  walk(buf, 0, buf.length, (field, _, from, to) => {
    if (field === 1)
      walk(buf, from, to, (f, value) => {
        if (f === 3) revision = value;
      });
  });
  return revision;
}
