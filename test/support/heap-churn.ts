// A process that sets the heap's growth as the server does (limitHeapGrowth with argv's percent and minimum), then
// keeps about 20 MiB live while it promotes 300 MiB of garbage through a ring of arrays that outlive two scavenges.
// Run with node's --trace-gc, its full collections are counted by test/heap-growth.test.ts.
import { limitHeapGrowth } from "../../src/server/heap-growth.js";

const [percent, minimumMiB] = process.argv.slice(2).map(Number);
const stop = limitHeapGrowth(percent!, minimumMiB!);
const live = Array.from({ length: 20 }, () => new Array<number>(128 * 1024).fill(1));
const ring: number[][] = new Array(16);
for (let i = 0; i < 300; i++) {
  ring[i % ring.length] = new Array<number>(128 * 1024).fill(i);
  // A turn between allocations, so the performance observer's entries (each full collection) are delivered.
  await new Promise((resolve) => setImmediate(resolve));
}
stop();
console.log(`kept ${live.length + ring.length} arrays`);
