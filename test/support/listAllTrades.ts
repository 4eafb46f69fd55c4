import type { NetworkName } from "../../src/domain/types.js";
import { MAX_TRADE_PAGE } from "../../src/store/buildTradePageSql.js";
import type { Store, StoredTrade } from "../../src/store/types.js";

/**
 * Every trade of `network` with a timestamp at or after `sinceTimestamp`, ascending by (blockNumber,
 * txIndex, logIndex), with their seq and marks: what tests and the bench compare whole stores by.
 * Read through the store's own pages (listTradePage), never one unbounded query; the marks come
 * from each pool's pages, the only pages that carry them.
 */
export async function listAllTrades(
  store: Pick<Store, "listTradePage">,
  network: NetworkName,
  sinceTimestamp: number,
): Promise<StoredTrade[]> {
  const trades = await readPages(store, network, sinceTimestamp);
  const bySeq = new Map(trades.map((trade) => [trade.seq, trade]));
  for (const pool of new Set(trades.flatMap((trade) => trade.pools))) {
    for (const { seq, marks } of await readPages(store, network, sinceTimestamp, pool)) {
      const trade = bySeq.get(seq);
      if (trade !== undefined && marks !== undefined) trade.marks = marks;
    }
  }
  return trades;
}

async function readPages(
  store: Pick<Store, "listTradePage">,
  network: NetworkName,
  fromTimestamp: number,
  pool?: StoredTrade["pools"][number],
): Promise<StoredTrade[]> {
  const trades: StoredTrade[] = [];
  for (;;) {
    const last = trades.at(-1);
    const page = await store.listTradePage(network, {
      fromTimestamp,
      limit: MAX_TRADE_PAGE,
      ...(last === undefined ? {} : { after: last }),
      ...(pool === undefined ? {} : { pool }),
    });
    trades.push(...page);
    if (page.length < MAX_TRADE_PAGE) return trades;
  }
}
