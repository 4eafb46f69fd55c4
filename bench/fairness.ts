import { Agent, request } from "node:http";

const NODE =
  "cursor node { txHash blockNumber timestamp sender volumeUSD tracked pools sell { token { address name symbol decimals } amount amountDecimal } buy { token { address name symbol decimals } amount amountDecimal } }";
/** The heaviest operation the cost limit admits: 15 pages of 111 swaps with every field (cost 249,958, 1.2 MB). */
const HEAVY = JSON.stringify({
  query: `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: swaps(first: 111) { edges { ${NODE} } }`).join(" ")} }`,
});
const QUOTE = JSON.stringify({
  query:
    'query { quote(network: bsc, sellToken: "CAKE", buyToken: "USDT") { price sellToken { symbol } buyToken { symbol } } }',
});
// Linux routes all of 127.0.0.0/8 to the loopback device: each client its own source address,
// so the server (request.ip) tells them apart.
const QUOTE_ADDRESS = "127.0.0.10";
const heavyAddress = (i: number) => `127.0.0.${20 + i}`;

/** One row of the fairness table. */
export interface FairnessRow {
  server: string;
  load: string;
  "quote p50 ms": number;
  "quote p99 ms": number;
  "quote max ms": number;
  quotes: number;
  "quotes > 20 ms": number;
  "heavy 200/s": number;
  "heavy 429/s": number;
}

/** What benchFairness measures: swapgraph without the client budget and with it. */
export interface FairnessTargets {
  /** swapgraph without a client budget. */
  unlimitedUrl: string;
  /** The same server with the client budget at its defaults. */
  budgetUrl: string;
  /** How the budget is set, for the table. */
  budgetLabel: string;
}

interface Answer {
  status: number;
  bytes: number;
  text: string;
}

function post(agent: Agent, url: URL, body: string, keepText: boolean, retried = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
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
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (keepText) chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, bytes, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as it was reused: node's advice is to send again.
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried) {
        resolve(post(agent, url, body, keepText, true));
      } else reject(error);
    });
    req.end(body);
  });
}

/** Fails the bench when the store is too small for the heavy query to do its full work. */
async function assertHeavyIsFull(url: URL): Promise<void> {
  const agent = new Agent({ keepAlive: false });
  const answer = await post(agent, url, HEAVY, true);
  const data = (JSON.parse(answer.text) as { data?: Record<string, { edges: unknown[] }> }).data ?? {};
  const sizes = Object.values(data).map((page) => page.edges.length);
  if (sizes.length !== 15 || sizes.some((size) => size !== 111)) {
    throw new Error(
      `the bench store is too small for the heavy query: pages of ${sizes.join(", ") || "nothing"} swaps, 15 x 111 needed (status ${answer.status})`,
    );
  }
}

/**
 * Quotes at a fixed rate from one client, each timed from when it was due (not from when it
 * could be sent): a stalled server delays every quote due meanwhile, as it would independent
 * callers' (no coordinated omission).
 */
export async function measureQuotes(url: URL, seconds: number, perSecond: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, localAddress: QUOTE_ADDRESS, maxSockets: 256 });
  const latencies: number[] = [];
  const failures: string[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = Math.round(seconds * perSecond);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const now = performance.now();
    if (due > now) await new Promise((resolve) => setTimeout(resolve, due - now));
    pending.push(
      post(agent, url, QUOTE, false).then(
        (answer) => {
          if (answer.status === 200) latencies.push(performance.now() - due);
          else failures.push(`status ${answer.status}`);
        },
        (error: unknown) => {
          failures.push(String(error));
        },
      ),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  if (failures.length > 0) throw new Error(`${failures.length} quotes failed: ${failures[0]}`);
  return latencies.sort((a, b) => a - b);
}

/** Clients that each send the heavy query without pause (not honouring Retry-After), one at a time. */
function startHeavyClients(url: URL, count: number) {
  let stopping = false;
  const answered = Array.from({ length: count }, () => 0);
  const counts = { ok: 0, limited: 0, other: 0 };
  const loops = answered.map(async (_, i) => {
    const agent = new Agent({ keepAlive: true, localAddress: heavyAddress(i), maxSockets: 1 });
    while (!stopping) {
      const answer = await post(agent, url, HEAVY, false);
      answered[i]!++;
      if (answer.status === 200) counts.ok++;
      else if (answer.status === 429) counts.limited++;
      else counts.other++;
    }
    agent.destroy();
  });
  return {
    answered,
    counts,
    reset() {
      counts.ok = 0;
      counts.limited = 0;
      counts.other = 0;
    },
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** The p-quantile of sorted latencies, to 0.1 ms. */
export const percentile = (sorted: number[], p: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(1));

/**
 * Per target: quotes alone for `seconds`, then while `heavyClients` other clients send the
 * heaviest admitted query without pause, from when every heavy client had two answers (its
 * burst spent): for `seconds` without the budget, for `budgetSeconds` with it (long enough to
 * hold the heavy queries its refill lets through).
 */
export async function benchFairness(
  targets: FairnessTargets,
  options: {
    seconds: number;
    budgetSeconds: number;
    quotesPerSecond: number;
    heavyClients: number;
    /** Run between the two targets (they share a process): a full GC, so neither pays for the other's garbage. */
    settle: () => Promise<void>;
  },
): Promise<FairnessRow[]> {
  const { seconds, quotesPerSecond, heavyClients } = options;
  const rows: FairnessRow[] = [];
  await assertHeavyIsFull(new URL(targets.unlimitedUrl));
  // The budget first: without it the server falls behind by minutes, and is measured last.
  for (const [server, base, loadedSeconds] of [
    [targets.budgetLabel, targets.budgetUrl, options.budgetSeconds],
    ["no client budget", targets.unlimitedUrl, seconds],
  ] as const) {
    await options.settle();
    const url = new URL(base);
    const row = (
      load: string,
      latencies: number[],
      heavy?: { ok: number; limited: number; seconds: number },
    ) => ({
      server,
      load,
      "quote p50 ms": percentile(latencies, 0.5),
      "quote p99 ms": percentile(latencies, 0.99),
      "quote max ms": Number((latencies.at(-1) ?? 0).toFixed(1)),
      quotes: latencies.length,
      "quotes > 20 ms": latencies.filter((ms) => ms > 20).length,
      "heavy 200/s": heavy === undefined ? 0 : Number((heavy.ok / heavy.seconds).toFixed(3)),
      "heavy 429/s": heavy === undefined ? 0 : Math.round(heavy.limited / heavy.seconds),
    });
    // Warm-up: JIT and the edge's kept quote.
    await measureQuotes(url, 1, quotesPerSecond);
    rows.push(row("alone", await measureQuotes(url, seconds, quotesPerSecond)));
    const heavy = startHeavyClients(url, heavyClients);
    try {
      while (heavy.answered.some((count) => count < 2)) await new Promise((r) => setTimeout(r, 50));
      heavy.reset();
      const started = performance.now();
      const loaded = await measureQuotes(url, loadedSeconds, quotesPerSecond);
      // The heavy clients' answers while the quotes were due and answered.
      const { ok, limited, other } = heavy.counts;
      if (other > 0) throw new Error(`${other} heavy queries answered neither 200 nor 429`);
      const elapsed = (performance.now() - started) / 1000;
      rows.push(row(`+${heavyClients} heavy clients`, loaded, { ok, limited, seconds: elapsed }));
    } finally {
      await heavy.stop();
    }
  }
  return rows;
}
