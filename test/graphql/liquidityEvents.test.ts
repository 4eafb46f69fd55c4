import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { encodeSwapCursor } from "../../src/api/swapCursor.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { Address } from "../../src/domain/types.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { getTokenPriceUsd } from "../../src/pricing/getTokenPriceUsd.js";
import { amountToUsd } from "../../src/pricing/usdMath.js";
import type { Store } from "../../src/store/types.js";
import { mine, revert, snapshot, startTestDevnet } from "../support/devnet.js";
import { sendLiquidityChanges } from "../support/liquidityChanges.js";
import { pricingParamsOf } from "../support/pricingParams.js";
import {
  type ChainLiquidityEvent,
  type ChainSync,
  readLiquidityEventsFromChain,
} from "../support/readLiquidityEventsFromChain.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { readAllPages, readPage } from "./readConnection.js";
import { gql } from "./support.js";

// The real path: the demo devnet's V2 pairs (their seeding Mints, plus removals and an add made
// here) -> indexer -> store (SQLite and PostgreSQL) -> yoga, checked against the chain's own
// Mint/Burn logs (eth_getLogs over the factories' PairCreated pairs) and a USD recompute with the
// pricing rules over the reserves the chain's Syncs give after each event's transaction.
const silent = { info() {}, warn() {}, error() {} };
const NODE = `txHash logIndex blockNumber timestamp type sender owner amountUSD liquidity tickLower tickUpper
  pool { address token0 token1 } amount0 { amount token { address } } amount1 { amount token { address } }`;
const EVENTS = /* GraphQL */ `
  query L($pool: String, $token: String, $from: Timestamp, $to: Timestamp, $first: Int, $after: String, $atBlock: BigInt) {
    liquidityEvents(pool: $pool, token: $token, from: $from, to: $to, first: $first, after: $after, atBlock: $atBlock) {
      edges { cursor node { ${NODE} } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

interface ShownEvent {
  txHash: string;
  logIndex: number;
  blockNumber: string;
  timestamp: number;
  type: "MINT" | "BURN";
  sender: string;
  owner: string;
  amountUSD: string;
  liquidity: string | null;
  tickLower: number | null;
  tickUpper: number | null;
  pool: { address: string; token0: string; token1: string };
  amount0: { amount: string; token: { address: string } };
  amount1: { amount: string; token: { address: string } };
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;
let expected: ChainLiquidityEvent[];
let syncs: ChainSync[];
/** The liquidity transactions sent here: removal to a trader, add by a trader, native removal, direct burn. */
let sent: { remove: string; add: string; removeNative: string; burnDirect: string };

/** What the API must show for a chain event, USD aside. */
function shownOf(event: ChainLiquidityEvent): Omit<ShownEvent, "amountUSD"> {
  return {
    txHash: event.txHash,
    logIndex: event.logIndex,
    blockNumber: event.blockNumber.toString(),
    timestamp: event.timestamp,
    type: event.type === "mint" ? "MINT" : "BURN",
    sender: event.sender,
    owner: event.owner,
    liquidity: null,
    tickLower: null,
    tickUpper: null,
    pool: { address: event.pool, token0: event.token0, token1: event.token1 },
    amount0: { amount: event.amount0.toString(), token: { address: event.token0 } },
    amount1: { amount: event.amount1.toString(), token: { address: event.token1 } },
  };
}

const withoutUsd = ({ amountUSD: _, ...rest }: ShownEvent) => rest;

beforeAll(async () => {
  // V2 pools only: the expectations below are the chain's V2 Mint and Burn logs (the demo's V3
  // pools add their own Mints and Burns).
  devnet = await startTestDevnet({ seed: 23, v3: false });
  chain = devnet.chains[0]!;
  // From the block after the seeding one, and a window no prune reaches: the default window
  // starts (and prunes) inside the history by the clock, this one is fixed, so the chain's events
  // to compare with are known exactly.
  config = { ...devnet.networks[0]!, pollIntervalMs: 100, startBlock: 2n, windowDays: 30 };
  const dex = chain.dexes[0]!.name;
  const market = chain.pools.filter((pool) => pool.dex === dex && !pool.thin && !pool.wash);
  const wrappedSymbol = Object.entries(chain.tokens).find(
    ([, address]) => address.toLowerCase() === chain.wrapped.toLowerCase(),
  )![0];
  const tokenPool = market.find((pool) => !pool.symbols.includes(wrappedSymbol))!.address;
  const nativePool = market.find((pool) => pool.symbols.includes(wrappedSymbol))!.address;
  const [trader1, trader2, trader3] = chain.traders.slice(1, 4) as [Address, Address, Address];
  // One block of three liquidity transactions (each valued after its own transaction), then a
  // direct burn without a router in the next.
  const [remove, add, removeNative] = await sendLiquidityChanges(chain, [
    { kind: "remove", pool: tokenPool, bps: 1_000n, to: trader1 },
    { kind: "add", pool: tokenPool, account: trader2, bps: 100n },
    { kind: "removeNative", pool: nativePool, bps: 500n, to: trader3 },
  ]);
  await mine(chain.rpcUrl);
  const [burnDirect] = await sendLiquidityChanges(chain, [
    { kind: "burnDirect", pool: nativePool, bps: 300n, to: trader1 },
  ]);
  await mine(chain.rpcUrl);
  // A little of three more pools' liquidity, so that filters have several pools to tell apart.
  await sendLiquidityChanges(
    chain,
    market
      .filter((pool) => pool.address !== tokenPool && pool.address !== nativePool)
      .slice(0, 3)
      .map((pool) => ({
        kind: pool.symbols.includes(wrappedSymbol) ? "removeNative" : "remove",
        pool: pool.address,
        bps: 200n,
        to: chain.traders[4]!,
      })),
  );
  await mine(chain.rpcUrl);
  sent = { remove: remove!, add: add!, removeNative: removeNative!, burnDirect: burnDirect! };
  const fromChain = await readLiquidityEventsFromChain(config);
  expected = fromChain.events.filter((event) => event.blockNumber >= config.startBlock!);
  syncs = fromChain.syncs;
}, 180_000);

afterAll(async () => {
  await devnet?.stop();
});

describe.each(createTestStores())("liquidityEvents on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;
  let yoga: GraphqlServer;

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    yoga = createGraphqlServer({ reader: indexing.views, logger: pino({ level: "silent" }) });
    indexing.start();
    await waitUntilIndexed(indexing.views, config.name, { to: { rpcUrl: chain.rpcUrl } });
  }, 180_000);

  afterAll(async () => {
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  const page = (variables: Record<string, unknown>) =>
    readPage<ShownEvent>(yoga, EVENTS, "liquidityEvents", variables);
  const allPages = (variables: Record<string, unknown>, first: number) =>
    readAllPages<ShownEvent>(yoga, EVENTS, "liquidityEvents", variables, first);
  const errorOf = async (variables: Record<string, unknown>) => {
    const { status, body } = await gql(yoga, EVENTS, variables);
    return { status, code: body.errors?.[0]?.extensions?.code, message: body.errors?.[0]?.message };
  };

  test("behavior: every V2 Mint and Burn of the chain, in chain order, with its amounts, signer and owner", async () => {
    const shown = (await page({ from: 0, first: 1000 })).edges.map((edge) => edge.node);
    expect(shown.map(withoutUsd)).toEqual(expected.map(shownOf));
    // Not vacuous: the pools the chain cases open in the week, and the seven transactions sent here.
    expect(shown.length).toBeGreaterThanOrEqual(10);
    expect(new Set(shown.map((event) => event.type))).toEqual(new Set(["MINT", "BURN"]));
    const byTx = (hash: string) => expected.filter((event) => event.txHash === hash.toLowerCase());
    const router = chain.dexes[0]!.router.toLowerCase();
    // V2 Burn through the router: the owner is the Burn's `to`, the trader it paid.
    expect(byTx(sent.remove)).toMatchObject([
      { type: "burn", sender: chain.deployer.toLowerCase(), owner: chain.traders[1]!.toLowerCase() },
    ]);
    // V2 Mint: the owner is the caller of mint, the router, not who got the LP tokens.
    expect(byTx(sent.add)).toMatchObject([
      { type: "mint", sender: chain.traders[2]!.toLowerCase(), owner: router },
    ]);
    // removeLiquidityETH: the router takes the tokens to unwrap them, so it is the Burn's `to`.
    expect(byTx(sent.removeNative)).toMatchObject([{ type: "burn", owner: router }]);
    // Without a router, the caller of burn signed and names the recipient.
    expect(byTx(sent.burnDirect)).toMatchObject([
      { type: "burn", sender: chain.deployer.toLowerCase(), owner: chain.traders[1]!.toLowerCase() },
    ]);
  });

  test("behavior: amountUSD values both amounts at the pricing rules' prices after the event's transaction", async () => {
    const shown = (await page({ from: 0, first: 1000 })).edges.map((edge) => edge.node);
    const pairs = await store.listPairs(config.name);
    const params = await pricingParamsOf(config, store);
    const values = expected.map((event) => {
      // The reserves the chain's Syncs give after the event's transaction, over the indexed pairs.
      const reserves = new Map<string, ChainSync>();
      for (const sync of syncs) {
        const before =
          sync.blockNumber < event.blockNumber ||
          (sync.blockNumber === event.blockNumber && sync.txIndex <= event.txIndex);
        if (!before) break;
        reserves.set(sync.pair, sync);
      }
      const index = createPoolIndex();
      for (const pair of pairs) {
        const sync = reserves.get(pair.address);
        if (sync !== undefined) index.update({ ...pair, reserve0: sync.reserve0, reserve1: sync.reserve1 });
      }
      const side = (token: Address, amount: bigint) => {
        const price = getTokenPriceUsd(index, params, token);
        return price === undefined ? 0n : amountToUsd(amount, params.decimals(token)!, price);
      };
      return side(event.token0, event.amount0) + side(event.token1, event.amount1);
    });
    expect(shown.map((event) => event.amountUSD)).toEqual(values.map((value) => formatDecimal(value, 18)));
    // Not vacuous: the events sent here are priced, and the valuation moved within one block.
    const sentHere = new Set(Object.values(sent).map((hash) => hash.toLowerCase()));
    const here = shown.filter((event) => sentHere.has(event.txHash));
    expect(here.every((event) => Number(event.amountUSD) > 0)).toBe(true);
    // The pool the chain cases open between two tokens of no list is unpriced: worth "0".
    expect(shown.some((event) => event.amountUSD === "0")).toBe(true);
    console.info(
      `liquidity events: ${shown.length}, unpriced: ${shown.filter((e) => e.amountUSD === "0").length}, USD of those sent here: ${here.map((e) => e.amountUSD).join(", ")}`,
    );
  });

  test("behavior: pages of every size follow their cursors with no gap and no repeat", async () => {
    const all = expected.map(shownOf);
    for (const first of [1, 2, 3, 7, all.length - 1, all.length]) {
      const shown = await allPages({ from: 0 }, first);
      expect(shown.map(withoutUsd), `first: ${first}`).toEqual(all);
    }
    const one = await page({ from: 0, first: all.length });
    expect(one.pageInfo).toEqual({ hasNextPage: false, endCursor: one.edges.at(-1)!.cursor });
    const after = await page({ from: 0, after: one.pageInfo.endCursor });
    expect(after).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  test("args: pool and token filters return exactly that pool's, or the pools holding that token's, events", async () => {
    const pools = [...new Set(expected.map((event) => event.pool))];
    expect(pools.length).toBeGreaterThan(5);
    for (const pool of pools) {
      const shown = await allPages({ from: 0, pool: pool.toUpperCase().replace("0X", "0x") }, 2);
      expect(shown.map(withoutUsd), pool).toEqual(
        expected.filter((event) => event.pool === pool).map(shownOf),
      );
    }
    const wrapped = config.native.wrapped;
    const ofToken = (token: string) =>
      expected.filter((event) => event.token0 === token || event.token1 === token).map(shownOf);
    const usdt = chain.tokens.USDT!.toLowerCase();
    expect((await allPages({ from: 0, token: "USDT" }, 5)).map(withoutUsd)).toEqual(ofToken(usdt));
    expect((await allPages({ from: 0, token: usdt }, 5)).map(withoutUsd)).toEqual(ofToken(usdt));
    // The native symbol means its wrapped token.
    const native = (await allPages({ from: 0, token: config.native.symbol }, 5)).map(withoutUsd);
    expect(native).toEqual(ofToken(wrapped));
    expect(native.length).toBeGreaterThan(2);
  });

  test("args: atBlock pins a read to one indexed state, and from/to bound it in time", async () => {
    const middle = expected[Math.floor(expected.length / 2)]!;
    const pinned = await allPages({ from: 0, atBlock: middle.blockNumber.toString() }, 3);
    expect(pinned.map(withoutUsd)).toEqual(
      expected.filter((event) => event.blockNumber <= middle.blockNumber).map(shownOf),
    );
    const last = expected.at(-1)!;
    const window = await allPages({ from: middle.timestamp, to: last.timestamp }, 4);
    expect(window.map(withoutUsd)).toEqual(
      expected
        .filter((event) => event.timestamp >= middle.timestamp && event.timestamp < last.timestamp)
        .map(shownOf),
    );
    // Without `from`: the last 24 hours (the seeding Mints are days old, the changes made here are not).
    const now = Math.floor(Date.now() / 1000);
    const recent = (await allPages({}, 100)).map(withoutUsd);
    expect(recent).toEqual(expected.filter((event) => event.timestamp >= now - 86_400).map(shownOf));
    expect(recent.length).toBeGreaterThanOrEqual(4);
    expect(recent.length).toBeLessThan(expected.length);
  });

  test("behavior: pages pinned with atBlock do not see a block indexed between them", async () => {
    const indexed = indexing.views.status(config.name).indexedBlock!.toString();
    const pinned = { from: 0, atBlock: indexed };
    const head = await page({ ...pinned, first: 3 });
    // Mined and indexed between the pages; taken back afterwards so the next store indexes the same chain.
    const id = await snapshot(chain.rpcUrl);
    try {
      const tokenPool = expected.find((event) => event.txHash === sent.remove.toLowerCase())!.pool;
      const [hash] = await sendLiquidityChanges(chain, [
        { kind: "remove", pool: tokenPool, bps: 100n, to: chain.traders[1]! },
      ]);
      await mine(chain.rpcUrl);
      await waitUntilIndexed(indexing.views, config.name, { to: { rpcUrl: chain.rpcUrl }, ready: false });
      const read = head.edges.map((edge) => edge.node);
      for (let next = head; next.pageInfo.hasNextPage; ) {
        next = await page({ ...pinned, first: 3, after: next.pageInfo.endCursor });
        read.push(...next.edges.map((edge) => edge.node));
      }
      expect(read.map(withoutUsd)).toEqual(expected.map(shownOf));
      // Unpinned, the new Burn is there, last.
      const now = await allPages({ from: 0 }, 100);
      expect(now).toHaveLength(expected.length + 1);
      expect(now.at(-1)).toMatchObject({ txHash: hash!.toLowerCase(), type: "BURN" });
    } finally {
      await revert(chain.rpcUrl, id);
    }
  });

  test("error: a pool that is not indexed, bad first, cursors, tokens and ranges are BAD_REQUEST", async () => {
    expect(await errorOf({ pool: `0x${"ab".repeat(20)}` })).toEqual({
      status: 400,
      code: "BAD_REQUEST",
      message: `Pool 0x${"ab".repeat(20)} is not an indexed pool on bsc.`,
    });
    const swapCursor = encodeSwapCursor({ timestamp: 1, blockNumber: 1n, txIndex: 0, logIndex: 0 });
    for (const variables of [
      { pool: "0x1234" },
      { first: 0 },
      { first: 1001 },
      { after: "nonsense" },
      { after: swapCursor },
      { token: "NOSUCHTOKEN" },
      { token: "0x12" },
      { from: 100, to: 50 },
      { atBlock: "-1" },
    ]) {
      const error = await errorOf(variables);
      expect(error, JSON.stringify(variables)).toMatchObject({ status: 400, code: "BAD_REQUEST" });
    }
    expect((await errorOf({ after: swapCursor })).message).toBe(
      "after is not a valid cursor: pass an endCursor or edge cursor from liquidityEvents.",
    );
    expect((await errorOf({ first: 1001 })).message).toBe("first must be between 1 and 1000.");
    // A huge first is refused by the cost limit before any read.
    expect((await errorOf({ first: 1_000_000 })).code).toBe("COST_LIMIT");
  });
});
