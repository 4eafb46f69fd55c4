import type { NetworkConfig } from "../../src/config/types.js";
import type { Address, Hash, NetworkName, Token, TokenRef, Trade } from "../../src/domain/types.js";
import { BadRequestError } from "../../src/errors.js";
import type { PoolState } from "../../src/pricing/types.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { createLiveViews, type LiveViews } from "../../src/views/createLiveViews.js";

/**
 * A small market for in-process API tests: its trades committed to a real store (SQLite in
 * memory, migrated) behind the real live views (createLiveViews), as the indexer leaves them:
 * bsc (PancakeSwap V2, 18-decimal tokens) and eth (Uniswap V2, USDC with 6 and WBTC with 8
 * decimals); polygon is not configured. Trades are placed relative to `now`.
 */

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const E8 = 10n ** 8n;

/** Token addresses of the fixture (lowercase). */
export const BSC = {
  WBNB: "0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c",
  USDT: "0x55d398326f99059ff775485246999027b3197955",
  USDC: "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d",
  BTCB: "0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c",
  CAKE: "0x0e09fabb73bd3ade0a17ecc321fd13a19e81ce82",
  /** In the token list, no pool at all. */
  LONELY: "0x1111111111111111111111111111111111111111",
  /** A pool so lopsided that one whole token buys nothing. */
  DUST: "0x2222222222222222222222222222222222222222",
  /** Not in the token list; the chain (fixture resolver) knows it as an ERC-20. */
  OFFLIST: "0x3333333333333333333333333333333333333333",
  /** Not an ERC-20 contract. */
  NOT_A_TOKEN: "0x4444444444444444444444444444444444444444",
} as const satisfies Record<string, Address>;

export const ETH = {
  WETH: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2",
  USDC: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
  WBTC: "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599",
  DAI: "0x6b175474e89094c44da98b954eedeac495271d0f",
} as const satisfies Record<string, Address>;

/** Pair addresses of the fixture. */
export const POOLS = {
  WBNB_USDT: "0xa000000000000000000000000000000000000001",
  BTCB_WBNB: "0xa000000000000000000000000000000000000002",
  CAKE_WBNB: "0xa000000000000000000000000000000000000003",
  USDC_USDT: "0xa000000000000000000000000000000000000004",
  DUST_USDT: "0xa000000000000000000000000000000000000005",
  WETH_USDC: "0xe000000000000000000000000000000000000001",
  WBTC_WETH: "0xe000000000000000000000000000000000000002",
} as const satisfies Record<string, Address>;

export const TRADERS = {
  alice: "0xa11ce00000000000000000000000000000000001",
  bob: "0xb0b0000000000000000000000000000000000002",
  carol: "0xca20100000000000000000000000000000000003",
} as const satisfies Record<string, Address>;

const PANCAKE_FACTORY: Address = "0xca143ce32fe78f1f7019d7d551a6402fc5350c73";
const UNISWAP_FACTORY: Address = "0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f";

function entry(
  chainId: number,
  address: Address,
  name: string,
  symbol: string,
  decimals: number,
): NetworkConfig["tokenList"]["tokens"][number] {
  // Token lists carry checksummed addresses; the views lowercase them.
  return { chainId, address: address.toUpperCase().replace("0X", "0x"), name, symbol, decimals };
}

function networkConfig(name: NetworkName, chainId: number, extra: Partial<NetworkConfig>): NetworkConfig {
  return {
    name,
    chainId,
    rpcUrls: ["http://127.0.0.1:1"],
    native: { name: "", symbol: "", aliases: [], decimals: 18, wrapped: "0x" },
    dexes: [],
    tokenList: {
      name,
      timestamp: "2024-01-01T00:00:00Z",
      version: { major: 1, minor: 0, patch: 0 },
      tokens: [],
    },
    stablecoins: [],
    baseTokens: [],
    minLiquidityUsd: 1_000n * E18,
    windowDays: 7,
    finalityDepth: 15,
    pollIntervalMs: 1_000,
    maxLogRange: 1_000,
    maxStalenessSeconds: 600,
    rpc: { timeoutMs: 10_000, requestsPerSecond: 0, costModel: "computeUnits" },
    ...extra,
  };
}

const BSC_CONFIG = networkConfig("bsc", 56, {
  native: { name: "BNB", symbol: "BNB", aliases: [], decimals: 18, wrapped: BSC.WBNB },
  dexes: [{ name: "PancakeSwap V2", kind: "uniswap-v2", factory: PANCAKE_FACTORY, feeBps: 25 }],
  tokenList: {
    name: "bsc fixture",
    timestamp: "2024-01-01T00:00:00Z",
    version: { major: 1, minor: 0, patch: 0 },
    tokens: [
      entry(56, BSC.WBNB, "Wrapped BNB", "WBNB", 18),
      entry(56, BSC.USDT, "Tether USD", "USDT", 18),
      entry(56, BSC.USDC, "USD Coin", "USDC", 18),
      entry(56, BSC.BTCB, "BTCB Token", "BTCB", 18),
      entry(56, BSC.CAKE, "PancakeSwap Token", "Cake", 18),
      entry(56, BSC.LONELY, "Lonely Token", "LONELY", 18),
      entry(56, BSC.DUST, "Dust Token", "DUST", 18),
      // Another chain's entry must not leak into bsc.
      entry(1, ETH.DAI, "Dai Stablecoin", "DAI", 18),
    ],
  },
  stablecoins: [BSC.USDT, BSC.USDC],
  baseTokens: [BSC.WBNB, BSC.USDT, BSC.USDC, BSC.BTCB],
});

const ETH_CONFIG = networkConfig("eth", 1, {
  native: { name: "Ether", symbol: "ETH", aliases: [], decimals: 18, wrapped: ETH.WETH },
  dexes: [{ name: "Uniswap V2", kind: "uniswap-v2", factory: UNISWAP_FACTORY, feeBps: 30 }],
  tokenList: {
    name: "eth fixture",
    timestamp: "2024-01-01T00:00:00Z",
    version: { major: 1, minor: 0, patch: 0 },
    tokens: [
      entry(1, ETH.WETH, "Wrapped Ether", "WETH", 18),
      entry(1, ETH.USDC, "USD Coin", "USDC", 6),
      entry(1, ETH.WBTC, "Wrapped BTC", "WBTC", 8),
      entry(1, ETH.DAI, "Dai Stablecoin", "DAI", 18),
    ],
  },
  stablecoins: [ETH.USDC, ETH.DAI],
  baseTokens: [ETH.WETH, ETH.USDC, ETH.DAI],
});

function pool(
  address: Address,
  dex: string,
  factory: Address,
  feeBps: number,
  [token0, reserve0]: [Address, bigint],
  [token1, reserve1]: [Address, bigint],
): PoolState {
  // Pairs store tokens sorted by address, as the factory does.
  if (token0 > token1) return pool(address, dex, factory, feeBps, [token1, reserve1], [token0, reserve0]);
  return { address, dex, factory, token0, token1, feeBps, reserve0, reserve1 };
}

const pancake = (address: Address, a: [Address, bigint], b: [Address, bigint]) =>
  pool(address, "PancakeSwap V2", PANCAKE_FACTORY, 25, a, b);
const uniswap = (address: Address, a: [Address, bigint], b: [Address, bigint]) =>
  pool(address, "Uniswap V2", UNISWAP_FACTORY, 30, a, b);

/** Pools of the fixture with their reserves (BNB at 600 USD, BTC at 60,000 USD, CAKE at 2 USD, ETH at 3,000 USD). */
export const BSC_POOLS: PoolState[] = [
  pancake(POOLS.WBNB_USDT, [BSC.WBNB, 10_000n * E18], [BSC.USDT, 6_000_000n * E18]),
  pancake(POOLS.BTCB_WBNB, [BSC.BTCB, 100n * E18], [BSC.WBNB, 10_000n * E18]),
  pancake(POOLS.CAKE_WBNB, [BSC.CAKE, 1_000_000n * E18], [BSC.WBNB, 3_333n * E18]),
  pancake(POOLS.USDC_USDT, [BSC.USDC, 1_000_000n * E18], [BSC.USDT, 1_000_000n * E18]),
  pancake(POOLS.DUST_USDT, [BSC.DUST, 10n ** 33n], [BSC.USDT, 1_000n]),
];
export const ETH_POOLS: PoolState[] = [
  uniswap(POOLS.WETH_USDC, [ETH.WETH, 1_000n * E18], [ETH.USDC, 3_000_000n * E6]),
  uniswap(POOLS.WBTC_WETH, [ETH.WBTC, 10n * E8], [ETH.WETH, 200n * E18]),
];

/** Options of createFixtureReader. */
export interface FixtureOptions {
  /** Unix seconds the trades are placed relative to (default: the wall clock). */
  now?: number;
  /** Configured networks that are still backfilling. */
  notReady?: NetworkName[];
  /** Configured networks halted by a deep reorg (503; the status error names an RPC URL). */
  halted?: NetworkName[];
  /** Configured networks whose RPC is down: still served while fresh (the status error names a URL). */
  degraded?: NetworkName[];
  /** Extra bsc trades spread over the last 23 hours (for pagination and batching). */
  bulkTrades?: number;
  /** A migrated, empty store to commit into (default: SQLite in memory); close() closes it. */
  store?: Store;
}

/** The fixture: the reader and what went into it. */
export interface Fixture {
  reader: LiveViews;
  store: Store;
  now: number;
  /** Committed trades per network, ascending by (blockNumber, txIndex, logIndex); commit() appends. */
  trades: Record<"bsc" | "eth", Trade[]>;
  /** Tokens the fixture chain knows outside the token lists. */
  offList: Token;
  /** The indexed (and head) block of each network. */
  head: Record<"bsc" | "eth", bigint>;
  /**
   * Commits trades above the head as the indexer does (one store transaction, then the views
   * and status move to the new block, synced now).
   */
  commit(network: "bsc" | "eth", trades: Trade[]): Promise<void>;
  /**
   * Indexes past the finality depth with no trade: the oldest block a reorg could still replace
   * is stamped `settledBefore` (what MarketReader.settledBefore then answers), as a committed
   * range stores it.
   */
  settle(network: "bsc" | "eth", settledBefore: number): Promise<void>;
  close(): Promise<void>;
}

let hashCounter = 0;
function txHash(): Hash {
  hashCounter++;
  return `0x${hashCounter.toString(16).padStart(64, "0")}`;
}

interface TradeSpec {
  ago: number;
  block: bigint;
  txIndex: number;
  sender: Address;
  tokenIn: TokenRef;
  amountIn: bigint;
  tokenOut: TokenRef;
  amountOut: bigint;
  volumeUsd: bigint;
  pools: Address[];
  tracked?: boolean;
}

/** A fresh, unique transaction hash for a fixture trade. */
export function nextTxHash(): Hash {
  return txHash();
}

function trade(network: NetworkName, now: number, spec: TradeSpec): Trade {
  return {
    network,
    txHash: txHash(),
    blockNumber: spec.block,
    timestamp: now - spec.ago,
    txIndex: spec.txIndex,
    // One trade per fixture transaction: any log index keeps the order unique.
    logIndex: spec.txIndex,
    sender: spec.sender,
    tokenIn: spec.tokenIn,
    amountIn: spec.amountIn,
    tokenOut: spec.tokenOut,
    amountOut: spec.amountOut,
    volumeUsd: spec.volumeUsd,
    tracked: spec.tracked ?? true,
    pools: spec.pools,
  };
}

const HOUR = 3_600;
const DAY = 86_400;

function bscTrades(now: number, bulk: number): Trade[] {
  const t = (spec: TradeSpec) => trade("bsc", now, spec);
  const { alice, bob, carol } = TRADERS;
  // Blocks every 3 seconds: block numbers follow the timestamps.
  const blockAt = (ago: number) => 40_000_000n - BigInt(Math.floor(ago / 3));
  const list: Trade[] = [
    // Older days: in the 7-day volumes, not in the 24-hour list.
    t({
      ago: 5 * DAY + HOUR,
      block: blockAt(5 * DAY + HOUR),
      txIndex: 0,
      sender: alice,
      tokenIn: BSC.USDT,
      amountIn: 1_000n * E18,
      tokenOut: BSC.WBNB,
      amountOut: 1_660_000_000_000_000_000n,
      volumeUsd: 1_000n * E18,
      pools: [POOLS.WBNB_USDT],
    }),
    t({
      ago: 2 * DAY + 2 * HOUR,
      block: blockAt(2 * DAY + 2 * HOUR),
      txIndex: 3,
      sender: bob,
      tokenIn: BSC.CAKE,
      amountIn: 500n * E18,
      tokenOut: BSC.USDT,
      amountOut: 997n * E18,
      volumeUsd: 997n * E18,
      pools: [POOLS.CAKE_WBNB, POOLS.WBNB_USDT],
    }),
    t({
      ago: 2 * DAY + HOUR,
      block: blockAt(2 * DAY + HOUR),
      txIndex: 0,
      sender: bob,
      tokenIn: BSC.DUST,
      amountIn: 5n * E18,
      tokenOut: BSC.USDT,
      amountOut: 1n,
      volumeUsd: 0n,
      tracked: false,
      pools: [POOLS.DUST_USDT],
    }),
    // Just outside the 24-hour window.
    t({
      ago: DAY + 600,
      block: blockAt(DAY + 600),
      txIndex: 1,
      sender: carol,
      tokenIn: BSC.USDC,
      amountIn: 20n * E18,
      tokenOut: BSC.USDT,
      amountOut: 19_940_000_000_000_000_000n,
      volumeUsd: 20n * E18,
      pools: [POOLS.USDC_USDT],
    }),
    // Inside the window: native in (router wrapped BNB), a 3-decimal-place amount.
    t({
      ago: DAY - 600,
      block: blockAt(DAY - 600),
      txIndex: 2,
      sender: alice,
      tokenIn: "",
      amountIn: 95_801_854_503_710_000_000n,
      tokenOut: BSC.USDT,
      amountOut: 57_477_112_957_506_000_000_000n,
      volumeUsd: 57_477_112_957_506_000_000_000n,
      pools: [POOLS.WBNB_USDT],
    }),
    // Two swaps in one block, listed out of order to prove sorting by position.
    t({
      ago: 2 * HOUR,
      block: blockAt(2 * HOUR),
      txIndex: 7,
      sender: carol,
      tokenIn: BSC.USDT,
      amountIn: 2_737_788_670_269_999_999_999n,
      tokenOut: "",
      amountOut: 4_560_000_000_000_000_000n,
      volumeUsd: 2_737_788_670_269_999_999_999n,
      pools: [POOLS.WBNB_USDT],
    }),
    t({
      ago: 2 * HOUR,
      block: blockAt(2 * HOUR),
      txIndex: 1,
      sender: bob,
      tokenIn: BSC.BTCB,
      amountIn: 1n,
      tokenOut: BSC.CAKE,
      amountOut: 29n,
      volumeUsd: 60_000n,
      pools: [POOLS.BTCB_WBNB, POOLS.CAKE_WBNB],
    }),
    // Untracked (neither side priced), tiny amounts.
    t({
      ago: HOUR,
      block: blockAt(HOUR),
      txIndex: 0,
      sender: alice,
      tokenIn: BSC.DUST,
      amountIn: 123n,
      tokenOut: BSC.USDT,
      amountOut: 0n,
      volumeUsd: 0n,
      tracked: false,
      pools: [POOLS.DUST_USDT],
    }),
  ];
  for (let i = 0; i < bulk; i++) {
    // Spread over 23 hours, several per block, three traders.
    const ago = 23 * HOUR - Math.floor((i * (23 * HOUR - 60)) / Math.max(bulk, 1));
    const sender = [alice, bob, carol][i % 3]!;
    list.push(
      t({
        ago,
        block: blockAt(ago),
        txIndex: 100 + i,
        sender,
        tokenIn: BSC.USDT,
        amountIn: BigInt(i + 1) * E18,
        tokenOut: BSC.CAKE,
        amountOut: BigInt(i + 1) * 49n * (E18 / 100n),
        volumeUsd: BigInt(i + 1) * E18,
        pools: [POOLS.WBNB_USDT, POOLS.CAKE_WBNB],
      }),
    );
  }
  return sortTrades(list);
}

function ethTrades(now: number): Trade[] {
  const t = (spec: TradeSpec) => trade("eth", now, spec);
  const blockAt = (ago: number) => 20_000_000n - BigInt(Math.floor(ago / 12));
  return sortTrades([
    // 6-decimal USDC in, 8-decimal WBTC out through WETH.
    t({
      ago: 3 * HOUR,
      block: blockAt(3 * HOUR),
      txIndex: 4,
      sender: TRADERS.alice,
      tokenIn: ETH.USDC,
      amountIn: 1_234_567_891n,
      tokenOut: ETH.WBTC,
      amountOut: 2_057_613n,
      volumeUsd: 1_234_567_891_000_000_000_000n,
      pools: [POOLS.WETH_USDC, POOLS.WBTC_WETH],
    }),
    // Native ETH out, a huge amount.
    t({
      ago: HOUR,
      block: blockAt(HOUR),
      txIndex: 0,
      sender: TRADERS.bob,
      tokenIn: ETH.WBTC,
      amountIn: 123_456_789_012n,
      tokenOut: "",
      amountOut: 987_654_321_098_765_432_123_456_789n,
      volumeUsd: 74_074_073_407_200n * E18,
      pools: [POOLS.WBTC_WETH],
    }),
  ]);
}

function sortTrades(trades: Trade[]): Trade[] {
  return trades.sort((a, b) =>
    a.blockNumber === b.blockNumber
      ? a.txIndex - b.txIndex || a.logIndex - b.logIndex
      : a.blockNumber < b.blockNumber
        ? -1
        : 1,
  );
}

const HEADS = { bsc: 40_000_000n, eth: 20_000_000n } as const;
const POOLS_OF = { bsc: BSC_POOLS, eth: ETH_POOLS } as const;

function blockHash(network: NetworkName, block: bigint): Hash {
  return `0x${network === "bsc" ? "b" : "e"}${block.toString(16).padStart(63, "0")}`;
}

/**
 * Builds the fixture market: trades committed to a migrated store (SQLite in memory unless one is
 * given), read through the real live views; bsc and eth are ready and freshly synced unless told
 * otherwise.
 */
export async function createFixtureReader(options: FixtureOptions = {}): Promise<Fixture> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const store = options.store ?? createSqliteStore({ path: ":memory:" });
  if (options.store === undefined) await store.migrate();
  const reader = createLiveViews([BSC_CONFIG, ETH_CONFIG], store);
  const trades = { bsc: bscTrades(now, options.bulkTrades ?? 0), eth: ethTrades(now) };
  const head: Record<"bsc" | "eth", bigint> = { ...HEADS };
  const offList: Token = { address: BSC.OFFLIST, name: "Off List Token", symbol: "OFF", decimals: 9 };

  async function commitRange(network: "bsc" | "eth", list: Trade[], block: bigint): Promise<void> {
    const pools = POOLS_OF[network];
    await store.commitRange(network, {
      checkpoint: { blockNumber: block, blockHash: blockHash(network, block) },
      // The checkpoint's block is stored, as the indexer stores it (subscriptions check it).
      blocks: [
        {
          number: block,
          hash: blockHash(network, block),
          parentHash: blockHash(network, block - 1n),
          timestamp: list.at(-1)?.timestamp ?? now,
        },
      ],
      pairs: pools.map(({ reserve0: _r0, reserve1: _r1, ...pair }) => pair),
      reserves: pools.map((pool) => ({
        pair: pool.address,
        blockNumber: block,
        logIndex: 0,
        reserve0: pool.reserve0,
        reserve1: pool.reserve1,
      })),
      trades: list,
    });
  }

  // The views and status move to a newly committed block, synced now.
  const indexed = (network: "bsc" | "eth", block: bigint) => {
    reader.markIndexed(network, { blockNumber: block, blockHash: blockHash(network, block) });
    reader.setStatus(network, { indexedBlock: block, headBlock: block, syncedAt: Date.now() });
  };

  for (const network of ["bsc", "eth"] as const) {
    await commitRange(network, trades[network], head[network]);
    const checkpoint = { blockNumber: head[network], blockHash: blockHash(network, head[network]) };
    reader.load(network, { tokens: [], pools: POOLS_OF[network], checkpoint });
    reader.markIndexed(network, checkpoint);
  }
  // Stands in for the chain: reading an unknown address's ERC-20 metadata.
  reader.setTokenResolver("bsc", async (address) => {
    if (address === BSC.OFFLIST) return offList;
    throw new BadRequestError(`Address ${address} is not an ERC-20 token contract on bsc.`);
  });
  const syncedAt = Date.now();
  for (const network of ["bsc", "eth"] as const) {
    const ready = !(options.notReady ?? []).includes(network);
    const halted = (options.halted ?? []).includes(network);
    const degraded = (options.degraded ?? []).includes(network);
    reader.setStatus(network, {
      ready: ready && !halted,
      indexedBlock: ready ? head[network] : head[network] - 5_000n,
      headBlock: head[network],
      headCheckedAt: degraded ? syncedAt - 60_000 : syncedAt,
      syncedAt: ready ? syncedAt : undefined,
      // Degraded follows from these two: the head went unanswered a minute ago, with an error.
      halted,
      error: halted
        ? "reorg deeper than 15 blocks at https://rpc.example/KEY"
        : degraded
          ? "eth_getLogs failed at https://rpc.example/KEY"
          : undefined,
    });
  }

  return {
    reader,
    store,
    now,
    trades,
    offList,
    head,
    async commit(network, list) {
      const block = list.reduce<bigint>(
        (max, t) => (t.blockNumber > max ? t.blockNumber : max),
        head[network],
      );
      await commitRange(network, list, block);
      head[network] = block;
      trades[network] = sortTrades([...trades[network], ...list]);
      indexed(network, block);
    },
    async settle(network, settledBefore) {
      const oldest = head[network] + 1n;
      const block = oldest + BigInt(reader.getConfig(network).finalityDepth);
      const stored = (number: bigint, timestamp: number) => ({
        number,
        hash: blockHash(network, number),
        parentHash: blockHash(network, number - 1n),
        timestamp,
      });
      await store.commitRange(network, {
        checkpoint: { blockNumber: block, blockHash: blockHash(network, block) },
        blocks: [stored(oldest, settledBefore), stored(block, Math.max(settledBefore, now))],
        pairs: [],
        reserves: [],
        trades: [],
      });
      head[network] = block;
      indexed(network, block);
    },
    close: () => store.close(),
  };
}
