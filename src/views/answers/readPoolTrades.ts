import type { Address, NetworkName, Trade } from "../../domain/types.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import { poolPassesOf } from "../poolPassesOf.js";
import type { MarketReader } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";
import { buildPoolTrade, type PoolSwapNode, type PoolTrade } from "./buildPoolTrade.js";
import { wrongPairId } from "./parsePairId.js";
import { tokenOf } from "./readListedMarkets.js";
import { resolvePairPool } from "./resolvePairPool.js";

/** Trades read from the store per page (Query.poolSwaps' largest page). */
const TRADES_PAGE = 1_000;
const DAY = 86_400;

/** What a pool's trades are read with: the pinned block, the pool and its tokens' decimals. */
export interface PoolTradeSource {
  networkStatus: AnswerFreshness;
  /** The start of the stored history (unix seconds): NetworkStatus.historyFrom. */
  historyFrom: number;
  /** Pages of trades of [from, to) (unix seconds), oldest first, at the pinned block. */
  pages: (from: number, to: number | null) => AsyncGenerator<PoolTrade[]>;
}

/** A swap's passes through `pool` as the pool trades' rows read them (GraphQL PoolSwap's fields). */
function poolSwapNodesOf(trade: Trade, pool: Address): PoolSwapNode[] {
  return poolPassesOf(trade, pool).map((pass) => ({
    blockNumber: trade.blockNumber.toString(),
    logIndex: trade.logIndex,
    timestamp: trade.timestamp,
    hop: pass.hop,
    zeroForOne: pass.zeroForOne,
    amount0: pass.amount0.toString(),
    amount1: pass.amount1.toString(),
  }));
}

/**
 * Opens a pool's trades by its pair id (`param` names the parameter in errors): 400 for an id
 * that names no indexed pool (base_target or base_target_pool), 503 when the network does not
 * serve at `nowMs` (checked again per page, as each page is read).
 */
export async function openPoolTrades(
  reader: MarketReader,
  network: NetworkName,
  args: { pairId: string; param: string; nowMs: number },
): Promise<PoolTradeSource> {
  const { pairId, param, nowMs } = args;
  const { base, target, pool } = resolvePairPool(reader, network, pairId, param, nowMs);
  assertNetworkReady(reader, network, nowMs);
  const networkStatus = answerFreshness(reader, network, nowMs);
  const found = reader.getPoolIndex(network).get(pool);
  if (found === undefined || found.token0 !== base || found.token1 !== target) throw wrongPairId(param);
  const d0 = (await tokenOf(reader, network, found.token0)).decimals;
  const d1 = (await tokenOf(reader, network, found.token1)).decimals;
  const atBlock = reader.status(network).indexedBlock;

  async function* pages(from: number, to: number | null): AsyncGenerator<PoolTrade[]> {
    let after: Trade | undefined;
    for (;;) {
      assertNetworkReady(reader, network, nowMs);
      const trades = await reader.listTrades(network, {
        // Block timestamps never decrease along the chain: the last trade's narrows the read.
        fromTimestamp: after === undefined ? from : Math.max(from, after.timestamp),
        limit: TRADES_PAGE + 1,
        ...(to === null ? {} : { toTimestamp: to }),
        ...(after === undefined
          ? {}
          : { after: { blockNumber: after.blockNumber, txIndex: after.txIndex, logIndex: after.logIndex } }),
        ...(atBlock === undefined ? {} : { maxBlock: atBlock }),
        pool,
      });
      const page = trades.slice(0, TRADES_PAGE);
      yield page.flatMap((trade) => poolSwapNodesOf(trade, pool)).map((node) => buildPoolTrade(node, d0, d1));
      if (trades.length <= TRADES_PAGE) return;
      after = page.at(-1);
    }
  }
  const historyFrom = Math.floor(nowMs / 1000) - reader.getConfig(network).windowDays * DAY;
  return { networkStatus, historyFrom, pages };
}
