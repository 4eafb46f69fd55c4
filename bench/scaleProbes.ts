import { Agent, get } from "node:http";
import { createSleeper } from "../src/lib/createSleeper.js";

/** What one endpoint answered while it was polled: each answer's latency and the statuses. */
export interface SteadyPoll {
  /** Latency of every answer (whatever its status), from when its request was due (ms). */
  latencies: number[];
  /** Answers by HTTP status; "error" for a request that failed or timed out. */
  statuses: Map<string, number>;
  /** performance.now() when the first 200 was read (undefined: none). */
  firstOkAt?: number;
}

const POLL_TIMEOUT_MS = 30_000;

/**
 * GETs `url` every `intervalMs` on one keep-alive connection, one request at a time, each timed
 * from when it was due (not from when it could be sent): a stalled server delays every request
 * due meanwhile, and those then go out one after the other until the pace is caught up.
 */
export function pollSteadily(url: string, intervalMs: number): { stop(): Promise<SteadyPoll> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const result: SteadyPoll = { latencies: [], statuses: new Map() };
  let stopped = false;
  const sleeper = createSleeper();
  const loop = (async () => {
    const start = performance.now();
    for (let i = 0; !stopped; i++) {
      const due = start + i * intervalMs;
      const wait = due - performance.now();
      if (wait > 0) {
        await sleeper.sleep(wait);
        if (stopped) break;
      }
      const status = await statusWithin(url, agent);
      result.latencies.push(performance.now() - due);
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      if (status === "200") result.firstOkAt ??= performance.now();
    }
  })();
  return {
    async stop() {
      stopped = true;
      sleeper.wake();
      await loop;
      agent.destroy();
      return result;
    },
  };
}

/** The status of one GET read to the end ("error" when it fails or takes over 30 s). */
function statusWithin(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const req = get(url, { agent, timeout: POLL_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on("end", () => resolve(String(res.statusCode ?? 0)));
      res.on("error", () => resolve("error"));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve("error"));
  });
}

/** Samples `read` (bytes) every `intervalMs` until stopped (and once more at stop): the peak and how many samples. */
export function sampleRss(
  read: () => number | undefined,
  intervalMs: number,
): { stop(): { peakBytes: number | undefined; samples: number } } {
  let peakBytes: number | undefined;
  let samples = 0;
  const take = () => {
    const bytes = read();
    if (bytes === undefined) return;
    samples++;
    if (peakBytes === undefined || bytes > peakBytes) peakBytes = bytes;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakBytes, samples };
    },
  };
}

/** The largest value (0 for none), without spreading a long array into arguments. */
export function maxOf(values: readonly number[]): number {
  let max = 0;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** "200 x 97, 503 x 3" (statuses in ascending order). */
export function statusCounts(statuses: ReadonlyMap<string, number>): string {
  return [...statuses]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([status, count]) => `${status} x ${count}`)
    .join(", ");
}
