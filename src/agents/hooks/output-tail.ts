// A hook's output as the unit agent keeps it: stdout and stderr together, in
// the order they arrived, bounded to the last `limit` bytes, because a failing
// hook's last lines say why it failed and a chatty hook must not grow the
// agent without bound.

export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Whether bytes were dropped from the front. */
  truncated = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit) {
      const first = this.chunks[0]!;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
      this.truncated = true;
    }
  }

  text(): string {
    let bytes = Buffer.concat(this.chunks);
    // A cut may fall inside a UTF-8 sequence: start at the next whole character.
    if (this.truncated) {
      let start = 0;
      while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
    }
    return bytes.toString("utf8");
  }
}
