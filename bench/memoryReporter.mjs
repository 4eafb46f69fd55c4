// Preloaded into a swapgraph child by bench/memoryProbe.ts (`node --expose-gc --import ...`): answers
// the parent's IPC messages with the process's memory, after a full collection when asked, and
// writes a heap snapshot when asked. Nothing else of the child changes.
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from "node:v8";

const mb = (bytes) => Math.round(bytes / 1_048_576);

process.on("message", (message) => {
  if (message?.type !== "memory") return;
  if (message.collect === true) globalThis.gc?.();
  const usage = process.memoryUsage();
  const heap = getHeapStatistics();
  process.send?.({
    type: "memory",
    rss: mb(usage.rss),
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    mallocedMemory: mb(heap.malloced_memory),
    spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_used_size)])),
    snapshot: typeof message.snapshot === "string" ? writeHeapSnapshot(message.snapshot) : undefined,
  });
});
// The channel must not keep the process alive on its own.
process.channel?.unref();
