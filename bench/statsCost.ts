import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Address, Hash, Trade } from "../src/domain/types.js";
import { createPostgresStore } from "../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../src/store/types.js";

/** One line of the stats cost table. */
export interface StatsCostRow {
  store: string;
  trades: number;
  subject: string;
  "trades in 24 h": number;
  "ms per read (median)": number;
}

// A seeded generator, reset per market: every store and run measures the same trades.
let seed = 0x5eed1234;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}
const address = (): Address =>
  `0x${Array.from({ length: 5 }, () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0"),
  ).join("")}` as Address;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const E18 = 10n ** 18n;
const DAY = 86_400;
const PER_BLOCK = 20;

/**
 * `size` synthetic bsc trades over the last 24 hours (1,000 traders; 50 tokens, each with a pool
 * against WBNB; a tenth of them native-coin sides), with marks, so candles and pool directions are
 * those the indexer would store. WBNB is in every trade: the busiest token.
 */
function market(size: number, now: number) {
  seed = 0x5eed1234;
  const wbnb = address();
  const tokens = Array.from({ length: 50 }, address);
  const pools = new Map(tokens.map((token) => [token, address()]));
  const traders = Array.from({ length: 1_000 }, address);
  const blocks = Math.ceil(size / PER_BLOCK);
  const tradesOf = (block: number): Trade[] =>
    Array.from({ length: Math.min(PER_BLOCK, size - block * PER_BLOCK) }, (_, i): Trade => {
      const token = pick(tokens);
      const buy = random() < 0.5;
      const native = random() < 0.1;
      const side = native ? "" : wbnb;
      const amountIn = BigInt(1 + Math.floor(random() * 1e9)) * 10n ** 9n;
      const amountOut = BigInt(1 + Math.floor(random() * 1e9)) * 10n ** 9n;
      return {
        network: "bsc",
        txHash: `0x${block.toString(16).padStart(56, "0")}${i.toString(16).padStart(8, "0")}` as Hash,
        blockNumber: BigInt(block + 1),
        timestamp: now - DAY + Math.floor((block * DAY) / blocks),
        txIndex: i,
        logIndex: i,
        sender: pick(traders),
        tokenIn: buy ? side : token,
        amountIn,
        tokenOut: buy ? token : side,
        amountOut,
        volumeUsd: BigInt(Math.floor(random() * 1e6)) * E18,
        tracked: true,
        pools: [pools.get(token)!],
        marks: {
          priceInUsd: BigInt(1 + Math.floor(random() * 1e3)) * E18,
          priceOutUsd: BigInt(1 + Math.floor(random() * 1e3)) * E18,
          native: native ? wbnb : undefined,
          hops: [{ zeroForOne: token < wbnb ? !buy : buy, amountIn, amountOut }],
        },
      };
    });
  return { wbnb, token: tokens[0]!, pool: pools.get(tokens[0]!)!, blocks, tradesOf };
}

const hash = (block: bigint): Hash => `0x${block.toString(16).padStart(64, "0")}`;

async function fill(store: Store, size: number, now: number) {
  const m = market(size, now);
  for (let from = 0; from < m.blocks; from += 500) {
    const to = Math.min(m.blocks, from + 500);
    const trades = Array.from({ length: to - from }, (_, k) => m.tradesOf(from + k)).flat();
    const last = BigInt(to);
    await store.commitRange("bsc", {
      checkpoint: { blockNumber: last, blockHash: hash(last) },
      blocks: [
        { number: last, hash: hash(last), parentHash: hash(last - 1n), timestamp: trades.at(-1)!.timestamp },
      ],
      pairs: [],
      reserves: [],
      trades,
    });
  }
  return { ...m, head: BigInt(m.blocks) };
}

/** What one uncached Token.stats / Pool.stats costs the store: the windows' aggregate and the five prices. */
async function timeRead(store: Store, subject: Parameters<Store["getTradeStats"]>[1], rounds: number) {
  const times: number[] = [];
  let inDay = 0;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const [totals] = await Promise.all([
      store.getTradeStats("bsc", subject),
      store.getLastPrice("bsc", { ...subject, beforeTimestamp: subject.toTimestamp }),
      ...subject.fromTimestamps.map((beforeTimestamp) =>
        store.getLastPrice("bsc", { ...subject, beforeTimestamp }),
      ),
    ]);
    times.push(performance.now() - started);
    inDay = totals.at(-1)!.buys + totals.at(-1)!.sells;
  }
  times.sort((a, b) => a - b);
  return { ms: Number(times[Math.floor(times.length / 2)]!.toFixed(2)), inDay };
}

/**
 * `npm run bench` (stats cost part): the store work behind one market-stats answer that is not
 * shared yet (the first request of a series in a second and block), on synthetic stores of each
 * size filled through the store API: SQLite, and PostgreSQL when `pgUrl` is given.
 */
export async function benchStatsCost(options: {
  sizes: number[];
  pgUrl?: string;
  rounds?: number;
}): Promise<StatsCostRow[]> {
  const rows: StatsCostRow[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (const size of options.sizes) {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-stats-"));
    const stores: [string, () => Store][] = [
      ["sqlite", () => createSqliteStore({ path: join(dir, "s.sqlite") })],
    ];
    if (options.pgUrl !== undefined) {
      const schema = `bench_stats_${process.pid}_${size}`;
      stores.push(["postgres", () => createPostgresStore({ url: options.pgUrl!, schema })]);
    }
    for (const [name, open] of stores) {
      const store = open();
      await store.migrate();
      const m = await fill(store, size, now);
      const windows = {
        fromTimestamps: [300, 3_600, 21_600, DAY].map((w) => now - w),
        toTimestamp: now,
        maxBlock: m.head,
      };
      for (const [label, subject] of [
        ["token WBNB (every trade)", { kind: "token", token: m.wbnb } as const],
        ["token (1/50 of trades)", { kind: "token", token: m.token } as const],
        ["pool (1/50 of trades)", { kind: "pool", pool: m.pool } as const],
      ] as const) {
        const withNative = subject.kind === "token" && subject.token === m.wbnb;
        const { ms, inDay } = await timeRead(
          store,
          { subject, withNative, ...windows },
          options.rounds ?? 15,
        );
        rows.push({
          store: name,
          trades: size,
          subject: label,
          "trades in 24 h": inDay,
          "ms per read (median)": ms,
        });
      }
      await store.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
