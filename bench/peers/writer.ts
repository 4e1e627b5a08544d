// The grid's paced writer (bench/peers.ts), as a process of its own: one request at a
// time, the next waiting for the ack and for its slot (`perSecond`), `count` writes
// numbered from `first`, after WARMUP untimed writes of `warmup` (a key/row/model nobody
// watches: its client code compiled, its connection open). It prints one line when it
// starts pacing and one at the end with each
// write's send and ack times (as epoch milliseconds: performance.timeOrigin + now, which
// the parent converts to its own clock) and each write's answer (writes.ts).
import { makeWriter, type WriteSpec } from "./writes.js";

const { spec, warmup, first, count, perSecond, timeoutMs } = JSON.parse(process.argv[2]!) as {
  spec: WriteSpec;
  warmup: WriteSpec;
  first: number;
  count: number;
  perSecond: number;
  timeoutMs: number;
};
const epoch = () => performance.timeOrigin + performance.now();
const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs));

const WARMUP = 50;

const writer = makeWriter(spec);
const warmupWriter = makeWriter(warmup);
const sends: number[] = [];
const acks: number[] = [];
const answers: number[] = [];
try {
  for (let i = 1; i <= WARMUP; i++) await warmupWriter.write(i, timeoutMs);
  const interval = 1000 / perSecond;
  const started = performance.now();
  console.log(JSON.stringify({ started: epoch() }));
  for (let i = 0; i < count; i++) {
    const wait = started + i * interval - performance.now();
    if (wait > 0) await sleep(wait);
    const sent = epoch();
    answers.push(await writer.write(first + i, timeoutMs));
    sends.push(sent);
    acks.push(epoch());
  }
  console.log(JSON.stringify({ sends, acks, answers }));
} catch (error) {
  console.error(`writer: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  writer.close();
  warmupWriter.close();
}
