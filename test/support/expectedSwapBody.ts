import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { Trade } from "../../src/domain/types.js";

/** Token metadata as the contract shows it (decimals as a string). */
export interface TokenMeta {
  name: string;
  symbol: string;
  decimals: string;
}

/**
 * The contract's `/api/swaps_24h` element for a trade, built independently of the server's code
 * path from the trade and the tokens' metadata (`metaOf` finds a token by its reference, "" for
 * the native coin).
 */
export function expectedSwapBody(trade: Trade, metaOf: (ref: string) => TokenMeta) {
  const side = (ref: string, amount: bigint) => {
    const meta = metaOf(ref);
    return {
      ...meta,
      address: ref,
      amount: amount.toString(),
      amount_decimal: formatDecimal(amount, Number(meta.decimals), 8),
    };
  };
  return {
    tx_hash: trade.txHash,
    block_number: trade.blockNumber.toString(),
    sell_token: side(trade.tokenIn, trade.amountIn),
    buy_token: side(trade.tokenOut, trade.amountOut),
    trade_volume_usd: formatDecimal(trade.volumeUsd, 18),
  };
}
