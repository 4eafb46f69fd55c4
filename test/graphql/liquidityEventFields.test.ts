import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LiquidityEvent } from "../../src/domain/types.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import {
  BSC,
  createFixtureReader,
  type Fixture,
  nextTxHash,
  POOLS,
  TRADERS,
} from "../support/fixtureReader.js";
import { createMemoryLogger, gql } from "./support.js";

// The fields of the LiquidityEvent type over the fixture's store and views: V3 events (which the
// devnet does not make yet) show their liquidity and ticks, V2 ones null; readiness as swaps.
const E18 = 10n ** 18n;
const QUERY = /* GraphQL */ `
  query L($network: Network, $pool: String, $first: Int) {
    liquidityEvents(network: $network, pool: $pool, from: 0, first: $first) {
      edges { node {
        txHash logIndex blockNumber type sender owner liquidity tickLower tickUpper amountUSD
        pool { address dex kind }
        amount0 { amount amountDecimal token { symbol } } amount1 { amount amountDecimal token { symbol } }
      } }
    }
  }
`;

let fixture: Fixture;
let yoga: GraphqlServer;
let events: LiquidityEvent[];

beforeAll(async () => {
  fixture = await createFixtureReader({ notReady: ["eth"] });
  yoga = createGraphqlServer({ reader: fixture.reader, logger: createMemoryLogger("silent").logger });
  const block = fixture.head.bsc + 1n;
  const base = {
    network: "bsc",
    blockNumber: block,
    timestamp: fixture.now - 60,
    txIndex: 0,
    pool: POOLS.WBNB_USDT,
    sender: TRADERS.alice,
  } as const;
  // WBNB_USDT: USDT (0x55...) is token0, WBNB token1.
  events = [
    {
      ...base,
      txHash: nextTxHash(),
      logIndex: 3,
      type: "mint",
      owner: TRADERS.bob,
      amount0: 600n * E18,
      amount1: E18,
      liquidity: 12_345n,
      tickLower: -887_220,
      tickUpper: 887_220,
      amountUsd: 1_200n * E18,
    },
    {
      ...base,
      txHash: nextTxHash(),
      logIndex: 9,
      txIndex: 1,
      type: "burn",
      owner: TRADERS.carol,
      amount0: 3n * 10n ** 17n,
      amount1: 0n,
      liquidity: undefined,
      tickLower: undefined,
      tickUpper: undefined,
      amountUsd: 3n * 10n ** 17n,
    },
  ];
  const checkpoint = { blockNumber: block, blockHash: `0x${"ee".repeat(32)}` } as const;
  await fixture.store.commitRange("bsc", {
    checkpoint,
    blocks: [],
    pairs: [],
    reserves: [],
    trades: [],
    liquidityEvents: events,
  });
  // As the indexer does after a commit: the views reflect the block from now on.
  fixture.reader.markIndexed("bsc", checkpoint);
});

afterAll(async () => {
  await fixture.close();
});

describe("LiquidityEvent", () => {
  test("behavior: every field, the type as MINT or BURN, V3 fields null where the event has none", async () => {
    const { body } = await gql(yoga, QUERY, {});
    expect(body.errors).toBeUndefined();
    const nodes = (body.data!.liquidityEvents as { edges: { node: unknown }[] }).edges.map((e) => e.node);
    const pool = { address: POOLS.WBNB_USDT, dex: "PancakeSwap V2", kind: "V2" };
    expect(nodes).toEqual([
      {
        txHash: events[0]!.txHash,
        logIndex: 3,
        blockNumber: events[0]!.blockNumber.toString(),
        type: "MINT",
        sender: TRADERS.alice,
        owner: TRADERS.bob,
        liquidity: "12345",
        tickLower: -887_220,
        tickUpper: 887_220,
        amountUSD: "1200",
        pool,
        amount0: { amount: (600n * E18).toString(), amountDecimal: "600", token: { symbol: "USDT" } },
        amount1: { amount: E18.toString(), amountDecimal: "1", token: { symbol: "WBNB" } },
      },
      {
        txHash: events[1]!.txHash,
        logIndex: 9,
        blockNumber: events[1]!.blockNumber.toString(),
        type: "BURN",
        sender: TRADERS.alice,
        owner: TRADERS.carol,
        liquidity: null,
        tickLower: null,
        tickUpper: null,
        amountUSD: "0.3",
        pool,
        amount0: { amount: (3n * 10n ** 17n).toString(), amountDecimal: "0.3", token: { symbol: "USDT" } },
        amount1: { amount: "0", amountDecimal: "0", token: { symbol: "WBNB" } },
      },
    ]);
    // Pinned below their block, or filtered by another indexed pool: none.
    const pinned = await gql(
      yoga,
      `{ liquidityEvents(from: 0, atBlock: "${fixture.head.bsc}") { edges { node { txHash } } } }`,
    );
    expect(pinned.body.data?.liquidityEvents).toEqual({ edges: [] });
    const other = await gql(yoga, QUERY, { pool: POOLS.CAKE_WBNB });
    expect(other.body.data?.liquidityEvents).toEqual({ edges: [] });
    expect(BSC.USDT < BSC.WBNB).toBe(true);
  });

  test("behavior: events the store holds above the block the views reflect wait for the views (a replica's follower)", async () => {
    const block = fixture.head.bsc + 2n;
    const checkpoint = { blockNumber: block, blockHash: `0x${"ef".repeat(32)}` } as const;
    const later = { ...events[1]!, txHash: nextTxHash(), blockNumber: block, logIndex: 0 };
    await fixture.store.commitRange("bsc", {
      checkpoint,
      blocks: [],
      pairs: [],
      reserves: [],
      trades: [],
      liquidityEvents: [later],
    });
    const shown = async () =>
      (
        (await gql(yoga, QUERY, {})).body.data!.liquidityEvents as { edges: { node: { txHash: string } }[] }
      ).edges.map((edge) => edge.node.txHash);
    expect(await shown()).toEqual([events[0]!.txHash, events[1]!.txHash]);
    fixture.reader.markIndexed("bsc", checkpoint);
    expect(await shown()).toEqual([events[0]!.txHash, events[1]!.txHash, later.txHash]);
  });

  test("error: a network still indexing, or not configured here, is NOT_READY (503)", async () => {
    for (const network of ["eth", "polygon"]) {
      const { status, body } = await gql(yoga, QUERY, { network });
      expect(status, network).toBe(503);
      expect(body.errors?.[0]?.extensions?.code, network).toBe("NOT_READY");
    }
  });
});
