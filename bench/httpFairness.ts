import { Agent, request } from "node:http";
import { measureQuotes, percentile } from "./fairness.js";

// Each client its own source address (Linux routes all of 127.0.0.0/8 to the loopback device).
const downloaderAddress = (i: number) => `127.0.0.${40 + i}`;

/** One row of the REST fairness table. */
export interface RestFairnessRow {
  load: string;
  "quote p50 ms": number;
  "quote p99 ms": number;
  "quote max ms": number;
  quotes: number;
  "quotes > 20 ms": number;
  "lists 200/s": number;
  "lists 429/s": number;
  "list MB/s": number;
}

/** One row of the memory table. */
export interface MemoryRow {
  moment: string;
  "RSS MB": number;
  "heap used MB": number;
  "heap total MB": number;
}

/** The bench servers' memory, as servers.ts reports it. */
export interface ServerMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
}

function get(agent: Agent, url: URL, path: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, agent }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Clients that each download the whole swap list without pause, one at a time, ignoring Retry-After. */
function startDownloaders(url: URL, count: number, path: string) {
  let stopping = false;
  const counts = { ok: 0, limited: 0, other: 0, bytes: 0 };
  const loops = Array.from({ length: count }, async (_, i) => {
    const agent = new Agent({ keepAlive: true, localAddress: downloaderAddress(i), maxSockets: 1 });
    while (!stopping) {
      const answer = await get(agent, url, path).catch(() => ({ status: 0, bytes: 0 }));
      counts.bytes += answer.bytes;
      if (answer.status === 200) counts.ok++;
      else if (answer.status === 429) counts.limited++;
      else counts.other++;
    }
    agent.destroy();
  });
  return {
    counts,
    reset() {
      Object.assign(counts, { ok: 0, limited: 0, other: 0, bytes: 0 });
    },
    async stop() {
      stopping = true;
      // (a held refusal answers within a second.)
      await Promise.all(loops);
    },
  };
}

/**
 * REST fairness: a cheap GraphQL quote from one client at `quotesPerSecond`, each timed from when
 * it was due, alone and while `downloaders` other clients download the whole swap list
 * (`listPath`) without pause, on the server with its default list budget, from when the
 * downloaders have spent their burst.
 */
export async function benchRestFairness(
  baseUrl: string,
  options: { seconds: number; quotesPerSecond: number; downloaders: number; listPath: string },
): Promise<RestFairnessRow[]> {
  const url = new URL(baseUrl);
  const { seconds, quotesPerSecond, downloaders, listPath } = options;
  const row = (
    load: string,
    latencies: number[],
    lists?: { ok: number; limited: number; bytes: number; s: number },
  ) => ({
    load,
    "quote p50 ms": percentile(latencies, 0.5),
    "quote p99 ms": percentile(latencies, 0.99),
    "quote max ms": Number((latencies.at(-1) ?? 0).toFixed(1)),
    quotes: latencies.length,
    "quotes > 20 ms": latencies.filter((ms) => ms > 20).length,
    "lists 200/s": lists === undefined ? 0 : Number((lists.ok / lists.s).toFixed(1)),
    "lists 429/s": lists === undefined ? 0 : Number((lists.limited / lists.s).toFixed(1)),
    "list MB/s": lists === undefined ? 0 : Number((lists.bytes / lists.s / 1e6).toFixed(1)),
  });
  // Warm-up: JIT and the edge's kept quote.
  await measureQuotes(url, 1, quotesPerSecond);
  const rows: RestFairnessRow[] = [row("alone", await measureQuotes(url, seconds, quotesPerSecond))];
  const load = startDownloaders(url, downloaders, listPath);
  try {
    // Measured from when each downloader's burst is spent (its first 429), as a sustained abuser
    // is; at most 3 minutes (a budget that never refuses is measured as it is).
    const warmUntil = performance.now() + 180_000;
    while (load.counts.limited < downloaders && performance.now() < warmUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    load.reset();
    const started = performance.now();
    const loaded = await measureQuotes(url, seconds, quotesPerSecond);
    const s = (performance.now() - started) / 1000;
    const { ok, limited, other, bytes } = load.counts;
    if (other > 0) throw new Error(`${other} list downloads answered neither 200 nor 429`);
    rows.push(row(`+${downloaders} clients downloading ${listPath}`, loaded, { ok, limited, bytes, s }));
  } finally {
    await load.stop();
  }
  return rows;
}

/** The quote query with a random sell amount: a distinct request (and answer) every time. */
function randomQuote(): string {
  const amount = `${1 + Math.floor(Math.random() * 1e9)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  return JSON.stringify({
    query: `query { quote(network: bsc, sellToken: "CAKE", buyToken: "USDT", sellAmount: "${amount}") { price buyAmount sellToken { symbol } buyToken { symbol } } }`,
  });
}

/**
 * Memory under a flood of distinct requests: `count` GraphQL quotes with a random sellAmount,
 * `concurrency` at a time from one client; the server's RSS and heap before, right after (no
 * collection forced), and after a full collection.
 */
export async function benchDistinctQuotes(
  baseUrl: string,
  memory: { now(): Promise<ServerMemory>; afterGc(): Promise<number> },
  options: { count: number; concurrency: number },
): Promise<MemoryRow[]> {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const toRow = (moment: string, m: ServerMemory) => ({
    moment,
    "RSS MB": Math.round(m.rss / 1e6),
    "heap used MB": Math.round(m.heapUsed / 1e6),
    "heap total MB": Math.round(m.heapTotal / 1e6),
  });
  await memory.afterGc();
  const rows: MemoryRow[] = [toRow("before", await memory.now())];
  let next = 0;
  let failed = 0;
  let peak = await memory.now();
  let done = false;
  // The server's memory every 250 ms, one ask at a time: the highest seen is the flood's peak.
  const sampler = (async () => {
    while (!done) {
      const m = await memory.now();
      peak = {
        rss: Math.max(peak.rss, m.rss),
        heapUsed: Math.max(peak.heapUsed, m.heapUsed),
        heapTotal: Math.max(peak.heapTotal, m.heapTotal),
      };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const workers = Array.from({ length: options.concurrency }, async () => {
    while (next < options.count) {
      next++;
      const body = randomQuote();
      const status = await new Promise<number>((resolve) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: "/graphql",
            method: "POST",
            agent,
            headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", () => resolve(0));
        req.end(body);
      });
      if (status !== 200) failed++;
    }
  });
  await Promise.all(workers);
  done = true;
  await sampler;
  agent.destroy();
  if (failed > 0) throw new Error(`${failed} of ${options.count} distinct quotes did not answer 200`);
  rows.push(toRow(`peak during ${options.count} distinct quotes`, peak));
  rows.push(toRow("right after", await memory.now()));
  const live = await memory.afterGc();
  rows.push({ ...toRow("after a full GC", await memory.now()), "heap used MB": Math.round(live / 1e6) });
  return rows;
}
