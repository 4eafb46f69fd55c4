import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  maxUint256,
  parseAbi,
  parseAbiItem,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import { priceChangePercentage } from "../../src/domain/priceChangePercentage.js";
import type { Store } from "../../src/store/types.js";
import { chainHead, mine, sendSwap, startTestDevnet, testClient } from "../support/devnet.js";
import { openApiSchema } from "../support/openApiSchema.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { startServer, type TestServer } from "./support.js";

// The real path: anvil's V2 pairs and V3 pools -> indexer -> store (SQLite and PostgreSQL) ->
// the listing endpoints over a real socket. Each figure is recomputed from the chain: prices
// from getReserves/slot0 at the answer's block, 24-hour volumes, high and low from the pools'
// Swap logs of the rolling 24 hours up to the answer's block's time, liquidity from the GraphQL pool.
const silent = { info() {}, warn() {}, error() {} };
const ajv = new Ajv2020({ allErrors: true, strict: false });
const pairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]);
const slot0Abi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint32, bool)",
]);
const uniswapSlot0Abi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
]);
const decimalsAbi = parseAbi(["function decimals() view returns (uint8)"]);
const tokenAbi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
]);
const factoryAbi = parseAbi(["function getPair(address, address) view returns (address)"]);
const addLiquidityAbi = parseAbi([
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
]);
const V2_SWAP = parseAbiItem(
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
);
const V3_SWAP = parseAbiItem(
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
);
const PANCAKE_V3_SWAP = parseAbiItem(
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)",
);

// Recorded examples, as the formats' own pages show them (values and layout theirs).
const COINGECKO_PAIRS_EXAMPLE = [
  {
    ticker_id: "0x55d398326f99059ff775485246999027b3197955_0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c",
    base: "0x55d398326f99059ff775485246999027b3197955",
    target: "0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c",
    pool_id: "0x16b9a82891338f9ba80e2d6970fdda79d1eb0dae",
  },
];
const COINGECKO_TICKERS_EXAMPLE = [
  {
    ticker_id: "KUJI_axlUSDC",
    base_currency: "KUJI",
    target_currency: "axlUSDC",
    pool_id: "kujira14hj2tavq8fpesdwxxcu44rty3hh90vhujrvcmstl4zr3txmfvw9sl4e867",
    last_price: "0.3900",
    base_volume: "2091945.3229",
    target_volume: "868587.7620",
    liquidity_in_usd: "123.456",
    bid: "0.3900",
    ask: "0.3950",
    high: "1.4755",
    low: "0.2910",
  },
];
const CMC_SUMMARY_EXAMPLE = [
  {
    trading_pairs: "ETC_BTC",
    last_price: 0.00067,
    lowest_ask: 0.000681,
    highest_bid: 0.00067,
    base_volume: 1528.11,
    quote_volume: 1.0282814600000003,
    price_change_percent_24h: -1.3254786450662739,
    highest_price_24h: 0.000676,
    lowest_price_24h: 0.000666,
  },
];
const CMC_TICKER_EXAMPLE = {
  "0:a519f99bb5d6d51ef958ed24d337ad75a1c770885dcd42d51d6663f9fcdacfb2_0:c37b3fafca5bf7d3704b081fde7df54f298736ee059bf6d32fac25f5e6085bf6":
    {
      base_id: "0:a519f99bb5d6d51ef958ed24d337ad75a1c770885dcd42d51d6663f9fcdacfb2",
      base_name: "Tether",
      base_symbol: "USDT",
      quote_id: "0:c37b3fafca5bf7d3704b081fde7df54f298736ee059bf6d32fac25f5e6085bf6",
      quote_name: "USD Coin",
      quote_symbol: "USDC",
      last_price: "1.001259244956",
      base_volume: "2210.44204800",
      quote_volume: "2213.22553600",
    },
};
const CMC_ASSETS_EXAMPLE = {
  BTC: {
    name: "bitcoin",
    unified_cryptoasset_id: 1,
    can_withdraw: true,
    can_deposit: true,
    min_withdraw: 0.01,
    max_withdraw: 100,
    maker_fee: 0.01,
    taker_fee: 0.01,
  },
};

const COINGECKO_TRADES_EXAMPLE = {
  buy: [
    {
      trade_id: 1234567,
      price: "50.1",
      base_volume: "0.1",
      target_volume: "1",
      trade_timestamp: "1700050000",
      type: "buy",
    },
  ],
  sell: [
    {
      trade_id: 1234568,
      price: "50.1",
      base_volume: "0.1",
      target_volume: "1",
      trade_timestamp: "1700050000",
      type: "sell",
    },
  ],
};
const CMC_TRADES_EXAMPLE = [
  {
    trade_id: 3523643,
    price: "0.01",
    base_volume: "569000",
    quote_volume: "0.01000000",
    timestamp: "1585177482652",
    type: "sell",
  },
];

// The formats' schemas, as schema/openapi.yaml publishes them.
const COINGECKO_PAIRS_SCHEMA = openApiSchema("CoinGeckoPairs");
const COINGECKO_TICKERS_SCHEMA = openApiSchema("CoinGeckoTickers");
const CMC_SUMMARY_SCHEMA = openApiSchema("CmcSummary");
const CMC_ASSETS_SCHEMA = openApiSchema("CmcAssets");
const CMC_TICKER_SCHEMA = openApiSchema("CmcTicker");
const COINGECKO_TRADES_SCHEMA = openApiSchema("CoinGeckoHistoricalTrades");
const CMC_TRADES_SCHEMA = openApiSchema("CmcTrades");

// What swapgraph itself sends, beyond the formats: exact decimal strings and addresses everywhere.
const EXACT_DECIMAL = { type: "string", pattern: "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$" };
const ADDRESS = { type: "string", pattern: "^0x[0-9a-f]{40}$" };
const SWAPGRAPH_TICKER_SCHEMA = {
  type: "object",
  properties: {
    // base_target, or base_target_pool where pools share the tokens.
    ticker_id: { type: "string", pattern: "^0x[0-9a-f]{40}_0x[0-9a-f]{40}(_0x[0-9a-f]{40})?$" },
    base_currency: ADDRESS,
    target_currency: ADDRESS,
    pool_id: ADDRESS,
    last_price: EXACT_DECIMAL,
    base_volume: EXACT_DECIMAL,
    target_volume: EXACT_DECIMAL,
    liquidity_in_usd: EXACT_DECIMAL,
    high: EXACT_DECIMAL,
    low: EXACT_DECIMAL,
    bid: EXACT_DECIMAL,
    ask: EXACT_DECIMAL,
  },
  required: (COINGECKO_TICKERS_SCHEMA as { items: { required: string[] } }).items.required,
  additionalProperties: false,
};

const ENDPOINTS = {
  pairs: { path: "coingecko/{n}/pairs", schema: COINGECKO_PAIRS_SCHEMA },
  tickers: { path: "coingecko/{n}/tickers", schema: COINGECKO_TICKERS_SCHEMA },
  summary: { path: "cmc/{n}/summary", schema: CMC_SUMMARY_SCHEMA },
  assets: { path: "cmc/{n}/assets", schema: CMC_ASSETS_SCHEMA },
  ticker: { path: "cmc/{n}/ticker", schema: CMC_TICKER_SCHEMA },
} as const;

interface Ticker {
  ticker_id: string;
  bid?: string;
  ask?: string;
  base_currency: Address;
  target_currency: Address;
  pool_id: Address;
  last_price: string;
  base_volume: string;
  target_volume: string;
  liquidity_in_usd: string;
  high?: string;
  low?: string;
}

function errorsOf(schema: object, value: unknown): unknown {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : validate.errors;
}

describe("the published formats", () => {
  test("behavior: each format's recorded example passes its schema", () => {
    expect(errorsOf(COINGECKO_PAIRS_SCHEMA, COINGECKO_PAIRS_EXAMPLE)).toEqual([]);
    expect(errorsOf(COINGECKO_TICKERS_SCHEMA, COINGECKO_TICKERS_EXAMPLE)).toEqual([]);
    expect(errorsOf(CMC_SUMMARY_SCHEMA, CMC_SUMMARY_EXAMPLE)).toEqual([]);
    expect(errorsOf(CMC_TICKER_SCHEMA, CMC_TICKER_EXAMPLE)).toEqual([]);
    expect(errorsOf(CMC_ASSETS_SCHEMA, CMC_ASSETS_EXAMPLE)).toEqual([]);
    expect(errorsOf(COINGECKO_TRADES_SCHEMA, COINGECKO_TRADES_EXAMPLE)).toEqual([]);
    expect(errorsOf(CMC_TRADES_SCHEMA, CMC_TRADES_EXAMPLE)).toEqual([]);
  });

  test("error: the schemas refuse what the formats do not allow", () => {
    const { liquidity_in_usd: _, ...withoutLiquidity } = COINGECKO_TICKERS_EXAMPLE[0]!;
    expect(errorsOf(COINGECKO_TICKERS_SCHEMA, [withoutLiquidity])).not.toEqual([]);
    expect(
      errorsOf(COINGECKO_PAIRS_SCHEMA, [{ ...COINGECKO_PAIRS_EXAMPLE[0], pool_id: undefined }]),
    ).not.toEqual([]);
    expect(errorsOf(CMC_SUMMARY_SCHEMA, [{ ...CMC_SUMMARY_EXAMPLE[0], last_price: "1e5" }])).not.toEqual([]);
    const [key, value] = Object.entries(CMC_TICKER_EXAMPLE)[0]!;
    expect(errorsOf(CMC_TICKER_SCHEMA, { [key]: { ...value, quote_volume: true } })).not.toEqual([]);
    expect(errorsOf(CMC_ASSETS_SCHEMA, { BTC: { symbol: "BTC" } })).not.toEqual([]);
    const sell = { ...COINGECKO_TRADES_EXAMPLE.sell[0], type: "buy" };
    expect(errorsOf(COINGECKO_TRADES_SCHEMA, { ...COINGECKO_TRADES_EXAMPLE, sell: [sell] })).not.toEqual([]);
    expect(errorsOf(COINGECKO_TRADES_SCHEMA, { buy: [] })).not.toEqual([]);
    expect(errorsOf(CMC_TRADES_SCHEMA, [{ ...CMC_TRADES_EXAMPLE[0], type: "swap" }])).not.toEqual([]);
  });
});

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;

const clientOf = () => createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 37 });
  chain = devnet.chains[0]!;
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

// A pair made by the first store's run and never traded: the next store's runs list it from the start.
let untradedPool: Address | undefined;

/**
 * A new pair on the first DEX of two listed tokens that had none, seeded by the deployer with a
 * hundredth of its balance of each and never traded; made once for all the stores' runs.
 */
async function openUntradedPool(): Promise<Address> {
  if (untradedPool !== undefined) return untradedPool;
  const transport = http(chain.rpcUrl, { retryCount: 0 });
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ account: chain.deployer, transport });
  const { factory, router } = chain.dexes[0]!;
  const tokens = Object.values(chain.tokens);
  for (const [i, a] of tokens.entries()) {
    for (const b of tokens.slice(i + 1)) {
      const pair = await client.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "getPair",
        args: [a, b],
      });
      if (pair !== zeroAddress) continue;
      const amounts: bigint[] = [];
      for (const token of [a, b]) {
        const balance = await client.readContract({
          address: token,
          abi: tokenAbi,
          functionName: "balanceOf",
          args: [chain.deployer],
        });
        amounts.push(balance / 100n);
        const data = encodeFunctionData({
          abi: tokenAbi,
          functionName: "approve",
          args: [router, maxUint256],
        });
        await wallet.sendTransaction({ chain: null, to: token, data, gas: 200_000n });
      }
      if (amounts.includes(0n)) continue;
      const args = [a, b, amounts[0]!, amounts[1]!, 0n, 0n, chain.deployer, 2n ** 40n] as const;
      const data = encodeFunctionData({ abi: addLiquidityAbi, functionName: "addLiquidity", args });
      const hash = await wallet.sendTransaction({ chain: null, to: router, data, gas: 5_000_000n });
      await mine(chain.rpcUrl);
      expect((await client.getTransactionReceipt({ hash })).status).toBe("success");
      const made = await client.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "getPair",
        args: [a, b],
      });
      untradedPool = made.toLowerCase() as Address;
      return untradedPool;
    }
  }
  throw new Error("openUntradedPool: every pair of listed tokens has a pool");
}

/** token1 per whole token0 of a ratio of smallest units, 36 digits of smallest units (as the candles). */
function priceOf(numerator: bigint, denominator: bigint, d0: number, d1: number): string {
  const raw = (numerator * 10n ** 36n) / denominator;
  const digits = 36 + d1 - d0;
  return digits >= 0 ? formatDecimal(raw, digits) : formatDecimal(raw * 10n ** BigInt(-digits), 0);
}

describe.each(createTestStores())("listings on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;
  let api: TestServer;
  const decimals = new Map<string, number>();

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    api = await startServer(indexing.views, { listen: true });
    indexing.start();
    await caughtUp();
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  async function caughtUp(): Promise<bigint> {
    const head = await chainHead(chain.rpcUrl);
    await waitUntilIndexed(indexing.views, config.name, {
      to: head,
      also: () => indexing.views.poolsBlock(config.name) === head,
    });
    return head;
  }

  const get = (name: keyof typeof ENDPOINTS, network = "bsc") =>
    api.call(`/${ENDPOINTS[name].path.replace("{n}", network)}`);

  async function decimalsOf(token: Address): Promise<number> {
    let value = decimals.get(token);
    if (value === undefined) {
      value = await clientOf().readContract({ address: token, abi: decimalsAbi, functionName: "decimals" });
      decimals.set(token, value);
    }
    return value;
  }

  /** The pool's price of token0 in token1 by its state on chain at `block`. */
  async function chainPrice(ticker: Ticker, block: bigint): Promise<string> {
    const d0 = await decimalsOf(ticker.base_currency);
    const d1 = await decimalsOf(ticker.target_currency);
    const client = clientOf();
    if (chain.v3?.pools.some((p) => p.address === ticker.pool_id)) {
      const abi = chain.v3.kind === "pancakeswap-v3" ? slot0Abi : uniswapSlot0Abi;
      const [sqrt] = await client.readContract({
        address: ticker.pool_id,
        abi,
        functionName: "slot0",
        blockNumber: block,
      });
      return priceOf(sqrt * sqrt, 1n << 192n, d0, d1);
    }
    const [r0, r1] = await client.readContract({
      address: ticker.pool_id,
      abi: pairAbi,
      functionName: "getReserves",
      blockNumber: block,
    });
    return priceOf(r1, r0, d0, d1);
  }

  /** The first block whose timestamp is at or after `start` (binary search over headers). */
  async function firstBlockAt(start: number, last: bigint): Promise<bigint> {
    const client = clientOf();
    let low = 0n;
    let high = last + 1n;
    while (low < high) {
      const middle = (low + high) / 2n;
      const block = await client.getBlock({ blockNumber: middle });
      if (Number(block.timestamp) >= start) high = middle;
      else low = middle + 1n;
    }
    return low;
  }

  /** Per pool: token0 and token1 swapped, executed prices, from the chain's Swap logs in [fromBlock, toBlock]. */
  async function chainWindow(pools: Address[], fromBlock: bigint, toBlock: bigint) {
    const client = clientOf();
    const out = new Map<string, { v0: bigint; v1: bigint; prices: bigint[] }>();
    const add = (pool: string, v0: bigint, v1: bigint) => {
      const entry = out.get(pool) ?? { v0: 0n, v1: 0n, prices: [] };
      entry.v0 += v0;
      entry.v1 += v1;
      if (v0 > 0n && v1 > 0n) entry.prices.push((v1 * 10n ** 36n) / v0);
      out.set(pool, entry);
    };
    if (fromBlock > toBlock) return out;
    for (const log of await client.getLogs({ address: pools, event: V2_SWAP, fromBlock, toBlock })) {
      const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
      const zeroForOne = amount0In! > 0n;
      add(log.address, zeroForOne ? amount0In! : amount0Out!, zeroForOne ? amount1Out! : amount1In!);
    }
    const v3Event = chain.v3?.kind === "pancakeswap-v3" ? PANCAKE_V3_SWAP : V3_SWAP;
    for (const log of await client.getLogs({ address: pools, event: v3Event, fromBlock, toBlock })) {
      const abs = (x: bigint) => (x < 0n ? -x : x);
      add(log.address, abs(log.args.amount0!), abs(log.args.amount1!));
    }
    return out;
  }

  /** The pool's swaps on chain in [fromBlock, toBlock] as the trade formats show them, oldest first. */
  async function chainTrades(ticker: Ticker, fromBlock: bigint, toBlock: bigint) {
    const client = clientOf();
    const d0 = await decimalsOf(ticker.base_currency);
    const d1 = await decimalsOf(ticker.target_currency);
    const v3 = chain.v3?.pools.some((p) => p.address === ticker.pool_id) === true;
    const abs = (x: bigint) => (x < 0n ? -x : x);
    const rows: { v0: bigint; v1: bigint; sell: boolean; block: bigint; log: number }[] = [];
    if (v3) {
      const event = chain.v3?.kind === "pancakeswap-v3" ? PANCAKE_V3_SWAP : V3_SWAP;
      for (const log of await client.getLogs({ address: ticker.pool_id, event, fromBlock, toBlock })) {
        const { amount0, amount1 } = log.args;
        rows.push({
          v0: abs(amount0!),
          v1: abs(amount1!),
          sell: amount0! > 0n,
          block: log.blockNumber,
          log: log.logIndex,
        });
      }
    } else {
      for (const log of await client.getLogs({
        address: ticker.pool_id,
        event: V2_SWAP,
        fromBlock,
        toBlock,
      })) {
        const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
        const sell = amount0In! > 0n;
        rows.push({
          v0: sell ? amount0In! : amount0Out!,
          v1: sell ? amount1Out! : amount1In!,
          sell,
          block: log.blockNumber,
          log: log.logIndex,
        });
      }
    }
    rows.sort((a, b) => (a.block === b.block ? a.log - b.log : a.block < b.block ? -1 : 1));
    const times = new Map<bigint, number>();
    const out = [];
    for (const row of rows) {
      if (!times.has(row.block))
        times.set(row.block, Number((await client.getBlock({ blockNumber: row.block })).timestamp));
      out.push({
        price: priceOf(row.v1, row.v0, d0, d1),
        base_volume: formatDecimal(row.v0, d0),
        target_volume: formatDecimal(row.v1, d1),
        trade_timestamp: times.get(row.block)! * 1000,
        type: row.sell ? "sell" : "buy",
      });
    }
    return out;
  }

  /**
   * The tickers, their block and the rolling window's start: swaps with block time in
   * (at - 24 h, at], at the answer's block's time on chain.
   */
  async function readTickers(): Promise<{ tickers: Ticker[]; block: bigint; windowStart: number }> {
    const answer = await get("tickers");
    expect(answer.status).toBe(200);
    const block = BigInt(answer.headers.get("x-indexed-block")!);
    const at = Number((await clientOf().getBlock({ blockNumber: block })).timestamp);
    return { tickers: answer.body as Ticker[], block, windowStart: at - 86_400 + 1 };
  }

  async function expectTickersMatchChain(
    tickers: Ticker[],
    block: bigint,
    windowStart: number,
  ): Promise<void> {
    const fromBlock = await firstBlockAt(windowStart, block);
    const window = await chainWindow(
      tickers.map((t) => t.pool_id),
      fromBlock,
      block,
    );
    // Every swap the devnet holds (all inside the stored window): each pool's last traded price.
    const history = await chainWindow(
      tickers.map((t) => t.pool_id),
      0n,
      block,
    );
    let traded = 0;
    let lastTraded = 0;
    for (const ticker of tickers) {
      const d0 = await decimalsOf(ticker.base_currency);
      const d1 = await decimalsOf(ticker.target_currency);
      // last_price is the price of the pool's newest swap (its Swap log's amount1 / amount0); the
      // pool's state price only for a pool that never traded.
      const lastSwap = history.get(ticker.pool_id)?.prices.at(-1);
      if (lastSwap !== undefined) lastTraded++;
      expect(ticker.last_price, `${ticker.pool_id} last_price`).toBe(
        lastSwap === undefined ? await chainPrice(ticker, block) : priceOf(lastSwap, 10n ** 36n, d0, d1),
      );
      const swaps = window.get(ticker.pool_id);
      expect(ticker.base_volume, `${ticker.pool_id} base_volume`).toBe(formatDecimal(swaps?.v0 ?? 0n, d0));
      expect(ticker.target_volume, `${ticker.pool_id} target_volume`).toBe(
        formatDecimal(swaps?.v1 ?? 0n, d1),
      );
      const prices = swaps?.prices ?? [];
      if (prices.length === 0) {
        expect(ticker.high).toBeUndefined();
        expect(ticker.low).toBeUndefined();
        continue;
      }
      traded++;
      const max = prices.reduce((a, b) => (a > b ? a : b));
      const min = prices.reduce((a, b) => (a < b ? a : b));
      expect(ticker.high, `${ticker.pool_id} high`).toBe(priceOf(max, 10n ** 36n, d0, d1));
      expect(ticker.low, `${ticker.pool_id} low`).toBe(priceOf(min, 10n ** 36n, d0, d1));
    }
    // The demo trades within the day: an answer of only empty windows would prove nothing.
    expect(traded).toBeGreaterThan(0);
    expect(lastTraded).toBeGreaterThan(0);
  }

  test("behavior: every answer is in its format, one ticker per indexed pool, liquidity as GraphQL says", async () => {
    // The pools' 24-hour price change just before and just after the answers are made (a swap of
    // the history can leave the window's start in between).
    const changes = async () => {
      const answer = await api.call("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query:
            "{ pools(network: bsc, first: 100) { edges { node { address priceChangePercentage24h } } } }",
        }),
      });
      const edges = (
        answer.body as {
          data: {
            pools: {
              edges: {
                node: {
                  address: string;
                  priceChangePercentage24h: string | null;
                };
              }[];
            };
          };
        }
      ).data.pools.edges;
      return new Map(edges.map(({ node }) => [node.address, node.priceChangePercentage24h]));
    };
    const changesBefore = await changes();
    const names = Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[];
    const answers = Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await get(name)] as const)),
    );
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.status, `${name} ${answer.text}`).toBe(200);
      expect(answer.headers.get("x-indexed-block"), name).toMatch(/^[0-9]+$/);
      expect(answer.headers.get("x-data-age"), name).toMatch(/^[0-9]+$/);
      expect(errorsOf(ENDPOINTS[name as keyof typeof ENDPOINTS].schema, answer.body), name).toEqual([]);
    }
    const tickers = answers.tickers!.body as Ticker[];
    for (const ticker of tickers) expect(errorsOf(SWAPGRAPH_TICKER_SCHEMA, ticker)).toEqual([]);

    const response = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query:
          "{ pools(network: bsc, first: 100) { edges { node { address kind token0 token1 liquidityUSD } } } }",
      }),
    });
    const pools = (response.body as { data: { pools: { edges: { node: Record<string, string | null> }[] } } })
      .data.pools.edges;
    expect(tickers.map((t) => t.pool_id).sort()).toEqual(pools.map((p) => p.node.address).sort());
    expect(pools.some((p) => p.node.kind === "V3")).toBe(true);
    // ticker_id is base_target, as the standards show it; base_target_pool only where another
    // indexed pool holds the same two tokens (here: a V2 pair and a V3 pool of one pair).
    const holders = new Map<string, number>();
    for (const { node } of pools) {
      const pair = `${node.token0}_${node.token1}`;
      holders.set(pair, (holders.get(pair) ?? 0) + 1);
    }
    expect([...holders.values()].some((n) => n === 1)).toBe(true);
    expect([...holders.values()].some((n) => n > 1)).toBe(true);
    for (const { node } of pools) {
      const ticker = tickers.find((t) => t.pool_id === node.address)!;
      const pair = `${node.token0}_${node.token1}`;
      expect(ticker.ticker_id).toBe(holders.get(pair) === 1 ? pair : `${pair}_${node.address}`);
      expect([ticker.base_currency, ticker.target_currency]).toEqual([node.token0, node.token1]);
      expect(ticker.liquidity_in_usd, node.address!).toBe(node.liquidityUSD ?? "0");
    }

    // The other formats say the same of each pool.
    const ids = tickers.map((t) => t.ticker_id);
    expect((answers.pairs!.body as { ticker_id: string }[]).map((p) => p.ticker_id)).toEqual(ids);
    const summary = answers.summary!.body as Record<string, string>[];
    const cmcTicker = answers.ticker!.body as Record<string, Record<string, string>>;
    expect(Object.keys(cmcTicker)).toEqual(ids);
    tickers.forEach((t, i) => {
      expect(summary[i]).toMatchObject({ trading_pairs: t.ticker_id, last_price: t.last_price });
      expect(summary[i]).toMatchObject({ base_volume: t.base_volume, quote_volume: t.target_volume });
      expect(cmcTicker[t.ticker_id]).toMatchObject({ base_id: t.base_currency, quote_id: t.target_currency });
      expect(cmcTicker[t.ticker_id]).toMatchObject({ last_price: t.last_price, base_volume: t.base_volume });
    });
    const tokens = new Set(tickers.flatMap((t) => [t.base_currency, t.target_currency]));
    expect(Object.keys(answers.assets!.body as object).sort()).toEqual([...tokens].sort());
    // CoinMarketCap's 24-hour price change is Pool.priceChangePercentage24h (absent when null).
    const changesAfter = await changes();
    let changed = 0;
    tickers.forEach((t, i) => {
      const got = summary[i]!.price_change_percent_24h ?? null;
      expect([changesBefore.get(t.pool_id), changesAfter.get(t.pool_id)], t.pool_id).toContain(got);
      if (got !== null) changed++;
    });
    expect(changed).toBeGreaterThan(0);
  });

  test("behavior: every V3 pool's liquidity_in_usd is what it holds (balanceOf at the indexed block) at the served prices", async () => {
    const balanceOfAbi = parseAbi(["function balanceOf(address) view returns (uint256)"]);
    const query = `{ tokens(network: bsc, first: 100) { edges { node { address priceUSD } } }
      pools(network: bsc, first: 100, kind: V3) { edges { node { address liquidityUSD activeLiquidityUSD
        balance0 { amount } balance1 { amount } } } } }`;
    const usd = (text: string): bigint => {
      const [whole, fraction = ""] = text.split(".");
      return BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, "0"));
    };
    // Tickers and GraphQL at one indexed block (nothing is mined meanwhile in this file's tests).
    const { tickers, block } = await readTickers();
    const graph = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const data = (
      graph.body as {
        data: {
          tokens: { edges: { node: { address: string; priceUSD: string | null } }[] };
          pools: { edges: { node: Record<string, unknown> }[] };
        };
      }
    ).data;
    const prices = new Map(data.tokens.edges.map(({ node }) => [node.address, node.priceUSD]));
    const v3 = tickers.filter((t) => chain.v3?.pools.some((p) => p.address === t.pool_id));
    expect(v3.length).toBeGreaterThan(0);
    let bothPriced = 0;
    let deeper = 0;
    for (const ticker of v3) {
      const [held0, held1] = await Promise.all(
        [ticker.base_currency, ticker.target_currency].map((token) =>
          clientOf().readContract({
            address: token,
            abi: balanceOfAbi,
            functionName: "balanceOf",
            args: [ticker.pool_id],
            blockNumber: block,
          }),
        ),
      );
      const node = data.pools.edges.find((edge) => edge.node.address === ticker.pool_id)!.node;
      // GraphQL's balances are the chain's.
      expect([node.balance0, node.balance1], ticker.pool_id).toEqual([
        { amount: held0!.toString() },
        { amount: held1!.toString() },
      ]);
      const price0 = prices.get(ticker.base_currency);
      const price1 = prices.get(ticker.target_currency);
      const d0 = await decimalsOf(ticker.base_currency);
      const d1 = await decimalsOf(ticker.target_currency);
      if (price0 == null || price1 == null) continue;
      bothPriced++;
      const expected =
        (held0! * usd(price0)) / 10n ** BigInt(d0) + (held1! * usd(price1)) / 10n ** BigInt(d1);
      expect(usd(ticker.liquidity_in_usd), ticker.pool_id).toBe(expected);
      expect(node.liquidityUSD).toBe(ticker.liquidity_in_usd);
      // The in-range depth stays under its own name; concentrated, it exceeds what is held.
      if (usd(node.activeLiquidityUSD as string) > expected) deeper++;
    }
    expect(bothPriced).toBeGreaterThan(0);
    expect(deeper).toBeGreaterThan(0);
  });

  test("behavior: last prices are the pools' last swaps on chain; volumes, high, low and price change the chain's swaps of the rolling 24 hours", async () => {
    const { tickers, block, windowStart } = await readTickers();
    await expectTickersMatchChain(tickers, block, windowStart);
    // CoinMarketCap's summary at the same block: the same volumes, and the price change of the
    // last swap at or before the block's time against the last at or before 24 hours earlier.
    const summary = await get("summary");
    expect(summary.headers.get("x-indexed-block")).toBe(block.toString());
    const pools = tickers.map((t) => t.pool_id);
    const before = await chainWindow(pools, 0n, (await firstBlockAt(windowStart, block)) - 1n);
    const history = await chainWindow(pools, 0n, block);
    let changed = 0;
    tickers.forEach((ticker, i) => {
      const row = (summary.body as Record<string, string>[])[i]!;
      expect(row).toMatchObject({ base_volume: ticker.base_volume, quote_volume: ticker.target_volume });
      const expected = priceChangePercentage(
        before.get(ticker.pool_id)?.prices.at(-1),
        history.get(ticker.pool_id)?.prices.at(-1),
      );
      expect(row.price_change_percent_24h ?? null, `${ticker.pool_id} price_change_percent_24h`).toBe(
        expected,
      );
      if (expected !== null) changed++;
    });
    expect(changed).toBeGreaterThan(0);
  });

  test("behavior: the store's rolling sums are exact at any cut: a swap at the cut's second is out, one second later in", async () => {
    const { tickers, block } = await readTickers();
    const pools = tickers.map((t) => t.pool_id);
    // Every Swap log up to the block with its block's time, from the chain.
    const client = clientOf();
    const times = new Map<bigint, number>();
    const timeOf = async (n: bigint) => {
      if (!times.has(n)) times.set(n, Number((await client.getBlock({ blockNumber: n })).timestamp));
      return times.get(n)!;
    };
    const abs = (x: bigint) => (x < 0n ? -x : x);
    const swaps: { pool: string; time: number; v0: bigint; v1: bigint }[] = [];
    for (const log of await client.getLogs({
      address: pools,
      event: V2_SWAP,
      fromBlock: 0n,
      toBlock: block,
    })) {
      const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
      swaps.push({
        pool: log.address,
        time: await timeOf(log.blockNumber),
        v0: abs(amount0In! - amount0Out!),
        v1: abs(amount1In! - amount1Out!),
      });
    }
    const v3Event = chain.v3?.kind === "pancakeswap-v3" ? PANCAKE_V3_SWAP : V3_SWAP;
    for (const log of await client.getLogs({
      address: pools,
      event: v3Event,
      fromBlock: 0n,
      toBlock: block,
    })) {
      swaps.push({
        pool: log.address,
        time: await timeOf(log.blockNumber),
        v0: abs(log.args.amount0!),
        v1: abs(log.args.amount1!),
      });
    }
    swaps.sort((a, b) => a.time - b.time);
    expect(swaps.length).toBeGreaterThan(50);
    // Cuts on swaps' own seconds across the history, and one second before each.
    const cuts = [0.1, 0.4, 0.7, 0.95].map((q) => swaps[Math.floor(q * swaps.length)]!.time);
    for (const cut of cuts.flatMap((time) => [time, time - 1])) {
      const got = await store.sumPoolSwaps(config.name, { afterTimestamp: cut, maxBlock: block });
      const expected = new Map<
        string,
        { count: number; v0: bigint; v1: bigint; high?: bigint; low?: bigint }
      >();
      for (const swap of swaps.filter((x) => x.time > cut)) {
        const entry = expected.get(swap.pool) ?? { count: 0, v0: 0n, v1: 0n };
        entry.count++;
        entry.v0 += swap.v0;
        entry.v1 += swap.v1;
        if (swap.v0 > 0n && swap.v1 > 0n) {
          const price = (swap.v1 * 10n ** 36n) / swap.v0;
          if (entry.high === undefined || price > entry.high) entry.high = price;
          if (entry.low === undefined || price < entry.low) entry.low = price;
        }
        expected.set(swap.pool, entry);
      }
      expect([...got.keys()].sort(), `after ${cut}`).toEqual([...expected.keys()].sort());
      for (const [pool, entry] of expected) {
        expect(got.get(pool as Address), `${pool} after ${cut}`).toEqual({
          swapCount: entry.count,
          volume0: entry.v0,
          volume1: entry.v1,
          high: entry.high,
          low: entry.low,
        });
      }
    }
  });

  test("behavior: a mined swap moves the pool's price and volumes", async () => {
    const before = await readTickers();
    const etagBefore = (await get("tickers")).headers.get("etag");
    const usdt = chain.tokens.USDT!.toLowerCase();
    const wrapped = chain.wrapped.toLowerCase();
    const [token0, token1] = usdt < wrapped ? [usdt, wrapped] : [wrapped, usdt];
    // One second after the head, whatever the wall clock says: the rolling 24 hours then move by
    // that second only, and no older trade leaves the window between the two answers (a cached
    // devnet's history ends when it was built, minutes earlier on a loaded run).
    const latest = await clientOf().getBlock();
    await testClient(chain.rpcUrl).setNextBlockTimestamp({ timestamp: latest.timestamp + 1n });
    await sendSwap(chain, { path: [wrapped, usdt], amountIn: 3n * 10n ** 18n });
    const head = await caughtUp();
    const after = await readTickers();
    expect(after.block).toBe(head);
    expect((await get("tickers")).headers.get("etag")).not.toBe(etagBefore);
    // The swap went through one of the V2 pairs of the two tokens (the first DEX's).
    const moved = after.tickers.filter((t) => {
      const old = before.tickers.find((o) => o.pool_id === t.pool_id);
      return t.base_currency === token0 && t.target_currency === token1 && old?.last_price !== t.last_price;
    });
    expect(moved.length).toBe(1);
    const old = before.tickers.find((o) => o.pool_id === moved[0]!.pool_id)!;
    const wrappedSide = token0 === wrapped ? "base_volume" : "target_volume";
    expect(Number(moved[0]![wrappedSide]) - Number(old[wrappedSide])).toBeCloseTo(3, 6);
    await expectTickersMatchChain(after.tickers, after.block, after.windowStart);
    // The swap is the pool's newest trade, in both formats.
    const trades = (await api.call(`/cmc/bsc/trades/${moved[0]!.ticker_id}`)).body as Record<
      string,
      unknown
    >[];
    const last = trades.at(-1)!;
    const headBlock = await clientOf().getBlock({ blockNumber: head });
    expect(last.timestamp).toBe(Number(headBlock.timestamp) * 1000);
    expect(last.type).toBe(token0 === wrapped ? "sell" : "buy");
    expect(last[token0 === wrapped ? "base_volume" : "quote_volume"]).toBe("3");
  });

  test("behavior: a pool that never traded is listed at its state price (reserve1 / reserve0), its book around it", async () => {
    const pool = await openUntradedPool();
    await caughtUp();
    const { tickers, block, windowStart } = await readTickers();
    const ticker = tickers.find((t) => t.pool_id === pool);
    expect(ticker, pool).toBeDefined();
    expect(ticker!.last_price).toBe(await chainPrice(ticker!, block));
    expect(ticker!.high).toBeUndefined();
    expect(ticker!.base_volume).toBe("0");
    // The best ask sits above the state price and the best bid below it, by the pair's fee.
    expect(Number(ticker!.ask)).toBeGreaterThan(Number(ticker!.last_price));
    expect(Number(ticker!.bid)).toBeLessThan(Number(ticker!.last_price));
    await expectTickersMatchChain(tickers, block, windowStart);
  });

  test("behavior: a pool's trades are the chain's swaps through it, in both formats", async () => {
    const { tickers, block } = await readTickers();
    const v3 = new Set(chain.v3?.pools.map((p) => p.address) ?? []);
    const traded = tickers.filter((t) => t.high !== undefined);
    const picked = [traded.find((t) => v3.has(t.pool_id))!, traded.find((t) => !v3.has(t.pool_id))!];
    const startMs = (Math.floor(Date.now() / 1000) - 3 * 86_400) * 1000;
    for (const ticker of picked) {
      const answer = await api.call(
        `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${startMs}`,
      );
      expect(answer.status, answer.text).toBe(200);
      expect(errorsOf(COINGECKO_TRADES_SCHEMA, answer.body)).toEqual([]);
      expect(BigInt(answer.headers.get("x-indexed-block")!)).toBe(block);
      const body = answer.body as { buy: Record<string, unknown>[]; sell: Record<string, unknown>[] };
      const expected = await chainTrades(ticker, await firstBlockAt(startMs / 1000, block), block);
      expect(expected.length).toBeGreaterThan(0);
      const shown = [...body.buy, ...body.sell].sort(
        (a, b) => (a.trade_id as number) - (b.trade_id as number),
      );
      expect(shown.map(({ trade_id: _, ...rest }) => rest)).toEqual(expected);
      expect(body.buy.every((t) => t.type === "buy") && body.sell.every((t) => t.type === "sell")).toBe(true);
      expect(new Set(shown.map((t) => t.trade_id)).size).toBe(shown.length);

      // The newest few, and one side only.
      const newest = (
        await api.call(
          `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${startMs}&limit=3`,
        )
      ).body as typeof body;
      expect(
        [...newest.buy, ...newest.sell].sort((a, b) => (a.trade_id as number) - (b.trade_id as number)),
      ).toEqual(shown.slice(-3));
      const buys = (
        await api.call(
          `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${startMs}&type=buy`,
        )
      ).body as typeof body;
      expect(buys).toEqual({ buy: body.buy, sell: [] });

      const head = await api.call(`/cmc/bsc/trades/${ticker.ticker_id}`, { method: "HEAD" });
      expect([head.status, head.text, head.headers.get("x-indexed-block")]).toEqual([200, "", String(block)]);

      // CoinMarketCap's: the last 24 hours, oldest first, the same trades.
      const cmc = await api.call(`/cmc/bsc/trades/${ticker.ticker_id}`);
      expect(cmc.status).toBe(200);
      expect(errorsOf(CMC_TRADES_SCHEMA, cmc.body)).toEqual([]);
      const dayAgoMs = (Math.floor(Date.now() / 1000) - 86_400) * 1000;
      const recent = shown.filter((t) => (t.trade_timestamp as number) >= dayAgoMs + 5_000);
      const cmcTrades = (cmc.body as Record<string, unknown>[]).filter(
        (t) => (t.timestamp as number) >= dayAgoMs + 5_000,
      );
      expect(cmcTrades).toEqual(
        recent.map((t) => ({
          trade_id: t.trade_id,
          price: t.price,
          base_volume: t.base_volume,
          quote_volume: t.target_volume,
          timestamp: t.trade_timestamp,
          type: t.type,
        })),
      );
    }
  });

  test("behavior: historical_trades limit=0 is every stored trade; start_time/end_time in seconds; a range before the stored history says so", async () => {
    const { tickers, block } = await readTickers();
    const ticker = tickers.filter((t) => t.high !== undefined)[0]!;
    const status = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ networkStatus(network: bsc) { historyFrom } }" }),
    });
    const historyFrom = (status.body as { data: { networkStatus: { historyFrom: number } } }).data
      .networkStatus.historyFrom;
    const all = await api.call(`/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&limit=0`);
    expect(all.status).toBe(200);
    expect(all.headers.get("x-history-from")).toBeNull();
    const body = all.body as { buy: Record<string, unknown>[]; sell: Record<string, unknown>[] };
    const shown = [...body.buy, ...body.sell].sort((a, b) => (a.trade_id as number) - (b.trade_id as number));
    // Every swap of the pool on chain since the stored history's start: more than a day's.
    const expected = await chainTrades(ticker, await firstBlockAt(historyFrom, block), block);
    expect(shown.map(({ trade_id: _, ...rest }) => rest)).toEqual(expected);
    const dayAgoMs = (Math.floor(Date.now() / 1000) - 86_400) * 1000;
    expect(expected.some((t) => t.trade_timestamp < dayAgoMs)).toBe(true);
    expect(await api.call(`/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}`)).toMatchObject({
      body,
    });

    // Seconds, as the standard defines them, give what the same instants in milliseconds give.
    const start = Math.floor(Date.now() / 1000) - 3 * 86_400;
    const end = Math.floor(Date.now() / 1000) - 86_400;
    const inSeconds = await api.call(
      `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${start}&end_time=${end}`,
    );
    const inMs = await api.call(
      `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${start * 1000}&end_time=${end * 1000}`,
    );
    expect(inSeconds.body).toEqual(inMs.body);
    const ranged = inSeconds.body as typeof body;
    const inRange = shown.filter(
      (t) => (t.trade_timestamp as number) >= start * 1000 && (t.trade_timestamp as number) <= end * 1000,
    );
    expect([...ranged.buy, ...ranged.sell].length).toBe(inRange.length);
    expect(inRange.length).toBeGreaterThan(0);

    // Before the stored history: a range that starts there is cut and says so; one that ends there is a 422.
    const early = await api.call(
      `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${historyFrom - 86_400}`,
    );
    expect(early.status).toBe(200);
    // historyFrom moves with the clock: the answer's is the request's (within the test's minute).
    const marked = Number(early.headers.get("x-history-from"));
    expect(marked >= historyFrom && marked <= historyFrom + 60).toBe(true);
    expect(early.body).toEqual(body);
    const before = await api.call(
      `/coingecko/bsc/historical_trades?ticker_id=${ticker.ticker_id}&start_time=${historyFrom - 86_400}&end_time=${historyFrom - 3_600}`,
    );
    expect(before.status).toBe(422);
    expect((before.body as { error: string }).error).toMatch(/before the stored history, which starts at/);
  });

  test("behavior: a pair id is base_target, or base_target_pool for any pool; the old form answers the same", async () => {
    const { tickers } = await readTickers();
    const short = tickers.find((t) => t.ticker_id.split("_").length === 2 && t.high !== undefined)!;
    const long = `${short.base_currency}_${short.target_currency}_${short.pool_id}`;
    const a = await api.call(`/coingecko/bsc/historical_trades?ticker_id=${short.ticker_id}&limit=5`);
    const b = await api.call(`/coingecko/bsc/historical_trades?ticker_id=${long}&limit=5`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    const { buy, sell } = a.body as { buy: unknown[]; sell: unknown[] };
    expect(buy.length + sell.length).toBe(5);
    const cmc = await api.call(`/cmc/bsc/trades/${short.ticker_id.toUpperCase().replaceAll("0X", "0x")}`);
    expect(cmc.status).toBe(200);
    // A two-part id of tokens that several pools hold names none of them: a 400 that lists them.
    const shared = tickers.find((t) => t.ticker_id.split("_").length === 3)!;
    const pair = `${shared.base_currency}_${shared.target_currency}`;
    const ambiguous = await api.call(`/coingecko/bsc/historical_trades?ticker_id=${pair}`);
    expect(ambiguous.status).toBe(400);
    expect((ambiguous.body as { error: string }).error).toMatch(
      /^ticker_id names [2-9] indexed pools of these tokens/,
    );
    const book = await api.call(`/cmc/bsc/orderbook/${pair}`);
    expect(book.status).toBe(400);
    expect((book.body as { error: string }).error).toMatch(/^market_pair names [2-9] indexed pools/);
  });

  test("error: a pair that is not an indexed pool's base_target(_pool) is a 400 that names the parameter", async () => {
    const { tickers } = await readTickers();
    const { base_currency: base, target_currency: target, pool_id: pool } = tickers[0]!;
    for (const bad of [
      `${target}_${base}_${pool}`,
      `${target}_${base}`,
      "nope",
      `${base}_${target}_0x${"1".repeat(40)}`,
      `${base}_0x${"1".repeat(40)}`,
    ]) {
      const cg = await api.call(`/coingecko/bsc/historical_trades?ticker_id=${bad}`);
      expect(cg.status, bad).toBe(400);
      expect((cg.body as { error: string }).error).toMatch(/^ticker_id must be base_target/);
      const cmc = await api.call(`/cmc/bsc/trades/${bad}`);
      expect(cmc.status, bad).toBe(400);
      expect((cmc.body as { error: string }).error).toMatch(/^market_pair must be base_target/);
    }
    const id = tickers[0]!.ticker_id;
    for (const [query, name] of [
      ["limit=-1", "limit"],
      ["limit=10001", "limit"],
      ["start_time=abc", "start_time"],
      ["end_time=1.5", "end_time"],
      ["type=both", "type"],
    ]) {
      const answer = await api.call(`/coingecko/bsc/historical_trades?ticker_id=${id}&${query}`);
      expect(answer.status, query).toBe(400);
      expect((answer.body as { error: string }).error, query).toMatch(new RegExp(`^${name} `));
    }
    // GraphQL's poolSwaps, behind them, refuses a pool that is not indexed.
    const graphql = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ poolSwaps(network: bsc, pool: "0x${"1".repeat(40)}") { edges { cursor } } }`,
      }),
    });
    const errors = (graphql.body as { errors: { message: string; extensions: { code: string } }[] }).errors;
    expect(errors[0]!.extensions.code).toBe("BAD_REQUEST");
    expect(errors[0]!.message).toMatch(/is not an indexed pool on bsc/);
    const missing = await api.call("/coingecko/bsc/historical_trades");
    expect(missing.status).toBe(400);
    expect((missing.body as { error: string }).error).toMatch(/ticker_id/);
  });

  test("behavior: answers are kept per indexed block (ETag, 304) and rate limited like /api", async () => {
    const first = await get("tickers");
    const again = await api.call("/coingecko/bsc/tickers", {
      headers: { "if-none-match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect((await get("tickers")).headers.get("etag")).toBe(first.headers.get("etag"));

    // One request a minute: the second call finds the bucket empty however slow the machine is.
    const limited = await startServer(indexing.views, { rateLimit: { perSecond: 1 / 60, burst: 1 } });
    try {
      expect((await limited.call("/cmc/bsc/summary")).status).toBe(200);
      const refused = await limited.call("/cmc/bsc/summary");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^[0-9]+$/);
    } finally {
      await limited.close();
    }
  });

  test("error: an unknown network is a 400 that names it; other methods a 405", async () => {
    for (const name of Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]) {
      const answer = await get(name, "solana");
      expect(answer.status, name).toBe(400);
      expect((answer.body as { error: string }).error).toMatch(/^network "solana" is not supported/);
    }
    // A network this server does not index: a 503, as on /api.
    for (const name of Object.keys(ENDPOINTS) as (keyof typeof ENDPOINTS)[]) {
      expect((await get(name, "eth")).status, name).toBe(503);
    }
    const id = `0x${"1".repeat(40)}_0x${"2".repeat(40)}_0x${"3".repeat(40)}`;
    expect((await api.call(`/cmc/eth/trades/${id}`)).status).toBe(503);
    expect((await api.call(`/coingecko/eth/historical_trades?ticker_id=${id}`)).status).toBe(503);
    const post = await api.call("/coingecko/bsc/tickers", { method: "POST" });
    expect(post.status).toBe(405);
    // The order book is served (test/http/orderBook.test.ts); without ticker_id it is a 400.
    expect((await api.call("/coingecko/bsc/orderbook")).status).toBe(400);
  });
});
