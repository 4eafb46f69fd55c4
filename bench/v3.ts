import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { NetworkConfig } from "../src/config/types.js";
import { createIndexing, type Indexing } from "../src/createIndexing.js";
import type { Address } from "../src/domain/types.js";
import { findQuoteRoutes } from "../src/pricing/findQuoteRoutes.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import { getQuote } from "../src/views/getQuote.js";
import { benchV3Hop } from "./v3Hop.js";

const silent = { info() {}, warn() {}, error() {} };

interface Backfill {
  indexing: Indexing;
  trades: number;
  seconds: number;
  close(): Promise<void>;
}

/** Backfills `config` into a fresh SQLite file; resolves once the head is reached. */
async function backfill(config: NetworkConfig, dir: string, name: string): Promise<Backfill> {
  const store = createSqliteStore({ path: join(dir, `${name}.sqlite`) });
  await store.migrate();
  let indexing!: Indexing;
  const done = await new Promise<{ trades: number; seconds: number }>((resolve) => {
    indexing = createIndexing({
      networks: [{ ...config, startBlock: 1n }],
      store,
      log: silent,
      onProgress: (p) => {
        if (p.done) resolve({ trades: p.trades, seconds: p.elapsedMs / 1000 });
      },
    });
    indexing.start();
  });
  return {
    indexing,
    ...done,
    async close() {
      await indexing.stop();
      await store.close();
    },
  };
}

/** Microseconds per quote over every ordered pair of `tokens` and several amounts, on one graph. */
function quoteMicros(
  indexing: Indexing,
  config: NetworkConfig,
  tokens: readonly Address[],
  rounds: number,
): number {
  const index = indexing.views.getPoolIndex(config.name);
  const baseTokens = new Set(
    [config.native.wrapped, ...config.baseTokens].map((a) => a.toLowerCase() as Address),
  );
  let count = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const sell of tokens) {
      for (const buy of tokens) {
        if (sell === buy) continue;
        const decimals = indexing.views.getToken(config.name, sell)?.decimals ?? 18;
        const unit = 10n ** BigInt(decimals);
        // Amounts from a hundredth to a thousand whole tokens, a different one each round (no cache).
        const amountIn = (unit * BigInt(1 + ((round * 7919) % 100_000))) / 100n;
        findQuoteRoutes({ index, sell, buy, amountIn, unitAmount: unit, baseTokens });
        count++;
      }
    }
  }
  return ((performance.now() - started) * 1000) / count;
}

/** Microseconds per getQuote (what the API runs: token resolution, routes, price, impact), a new amount each time. */
async function getQuoteMicros(
  indexing: Indexing,
  config: NetworkConfig,
  rounds: number,
  offset: number,
): Promise<number> {
  const symbols = config.tokenList.tokens.map((t) => t.symbol);
  let count = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const sell of symbols) {
      for (const buy of symbols) {
        if (sell === buy) continue;
        const decimals = config.tokenList.tokens.find((t) => t.symbol === sell)!.decimals;
        // A new amount every time: the route cache never answers.
        const sellAmount =
          (10n ** BigInt(decimals) * BigInt(1 + (((round + offset) * 7919) % 100_003))) / 100n;
        await getQuote(indexing.views, { network: config.name, sellToken: sell, buyToken: buy, sellAmount });
        count++;
      }
    }
  }
  return ((performance.now() - started) * 1000) / count;
}

/**
 * Concentrated liquidity in the same run: one eth demo devnet (Uniswap V2 and V3 pools of the same
 * pairs) backfilled three ways (both DEX kinds, V2 only, V3 only) for trades per second; then the
 * in-process route search (findQuoteRoutes, no cache) over the listed tokens on the graph with V3
 * pools against the V2-only graph of the same chain.
 */
export async function benchV3(options: {
  swaps: number;
  rounds: number;
}): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-v3-"));
  const devnet = await startDevnet({
    networks: ["eth"],
    swapsPerNetwork: options.swaps,
    liveIntervalMs: 0,
    dataDir: dir,
    // Half as many V3 trader swaps again as V2 ones (with the arbitrage, 0.6 of the V2 trades)
    // over the same blocks: the V3-only backfill reads the same chain as the V2-only one for a
    // comparable number of trades, so trades per second compares the work per trade.
    v3Share: 0.5,
  });
  const both = devnet.networks[0]!;
  const v2Only = { ...both, dexes: both.dexes.filter((dex) => dex.kind === "uniswap-v2") };
  const v3Only = { ...both, dexes: both.dexes.filter((dex) => dex.kind !== "uniswap-v2") };
  const runs: Backfill[] = [];
  try {
    const all = await backfill(both, dir, "both");
    runs.push(all);
    const v2 = await backfill(v2Only, dir, "v2");
    runs.push(v2);
    const v3 = await backfill(v3Only, dir, "v3");
    runs.push(v3);
    const tokens = both.tokenList.tokens.map((t) => t.address.toLowerCase() as Address);
    // Warm both graphs (JIT, memoized prices) before the measured rounds.
    quoteMicros(all.indexing, both, tokens, 2);
    quoteMicros(v2.indexing, v2Only, tokens, 2);
    const withV3 = quoteMicros(all.indexing, both, tokens, options.rounds);
    const v2Quote = quoteMicros(v2.indexing, v2Only, tokens, options.rounds);
    await getQuoteMicros(all.indexing, both, 2, 10_000);
    await getQuoteMicros(v2.indexing, v2Only, 2, 10_000);
    const wholeWithV3 = await getQuoteMicros(all.indexing, both, options.rounds, 0);
    const wholeV2 = await getQuoteMicros(v2.indexing, v2Only, options.rounds, 0);
    const pools = all.indexing.views.getPoolIndex(both.name).all();
    return {
      ...benchV3Hop(),
      "pools (V2 / V3)": `${pools.filter((p) => p.v3 === undefined).length} / ${pools.filter((p) => p.v3 !== undefined).length}`,
      "trades, both kinds": all.trades,
      "trades/s, both kinds": Math.round(all.trades / all.seconds),
      "V2 trades": v2.trades,
      "V2 trades/s": Math.round(v2.trades / v2.seconds),
      "V3 trades": v3.trades,
      "V3 trades/s": Math.round(v3.trades / v3.seconds),
      "V3/V2 backfill rate": Number((v3.trades / v3.seconds / (v2.trades / v2.seconds)).toFixed(2)),
      "route search µs, V2-only graph": Number(v2Quote.toFixed(1)),
      "route search µs, with V3 pools": Number(withV3.toFixed(1)),
      "route search with V3 / V2-only": Number((withV3 / v2Quote).toFixed(2)),
      "getQuote µs, V2-only graph": Number(wholeV2.toFixed(1)),
      "getQuote µs, with V3 pools": Number(wholeWithV3.toFixed(1)),
      "getQuote with V3 / V2-only": Number((wholeWithV3 / wholeV2).toFixed(2)),
    };
  } finally {
    for (const run of runs) await run.close();
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(
    await benchV3({
      swaps: Number(process.env.BENCH_SWAPS ?? 3000),
      rounds: Number(process.env.BENCH_V3_ROUNDS ?? 20),
    }),
  );
}
