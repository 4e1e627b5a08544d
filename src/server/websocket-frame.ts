// The start of a WebSocket text frame (RFC 6455 §5.2), for frames written to the TCP
// socket in pieces: a payload many frames share goes out as the same Buffer each time
// (shared-frames.ts), never copied into each frame. A server's frames are unmasked.

/** Bytes of the header of an unmasked frame whose payload is `length` bytes. */
const headerBytes = (length: number) => (length < 126 ? 2 : length < 65536 ? 4 : 10);

/**
 * The header of a final (unfragmented) text frame of `length` payload bytes, followed by `prefix`'s UTF-8 bytes: the
 * first piece of the frame, the rest of whose `length` bytes the caller writes after it.
 */
export function textFrameStart(length: number, prefix: string): Buffer {
  const start = Buffer.allocUnsafe(headerBytes(length) + Buffer.byteLength(prefix));
  writeStart(start, length, prefix);
  return start;
}

/**
 * A whole final text frame of `before`, `payload` and `after`, in one Buffer: for a small payload, one write of a few
 * hundred bytes costs less than three (each a write request of its own on the socket) and the copy is cheap.
 */
export function textFrame(before: string, payload: Buffer, after: string): Buffer {
  const length = Buffer.byteLength(before) + payload.length + Buffer.byteLength(after);
  const frame = Buffer.allocUnsafe(headerBytes(length) + length);
  let at = writeStart(frame, length, before);
  at += payload.copy(frame, at);
  frame.write(after, at);
  return frame;
}

/** Writes the frame header for `length` payload bytes and then `prefix` into `start`; returns the bytes written. */
function writeStart(start: Buffer, length: number, prefix: string): number {
  const header = headerBytes(length);
  start[0] = 0x81; // FIN, opcode 1 (text)
  if (header === 2) start[1] = length;
  else if (header === 4) {
    start[1] = 126;
    start.writeUInt16BE(length, 2);
  } else {
    start[1] = 127;
    start.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    start.writeUInt32BE(length >>> 0, 6);
  }
  return header + start.write(prefix, header);
}
