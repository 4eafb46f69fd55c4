import { type Address, encodeFunctionData, maxUint256 } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import { devnetTokenAbi, uniswapV2RouterAbi } from "../deploy/devnetAbis.js";
import type { DevnetMarket } from "../devnetTypes.js";
import type { PlannedTrade } from "./createTradeGenerator.js";

/** Turns planned trades into router transactions, approving each router once per trader and token. */
export interface TradeEncoder {
  /** The transactions of these trades in order: a max approval first where one is missing. */
  encode(trades: readonly PlannedTrade[], deadline: number): TxRequest[];
}

/** Approvals given before the encoder's first trade: every one of `traders` approved every token to each of `routers`. */
export interface Preapproved {
  traders: readonly Address[];
  routers: readonly Address[];
}

/** Creates an encoder that remembers which approvals it already sent (or were given up front). */
export function createTradeEncoder(market: DevnetMarket, preapproved?: Preapproved): TradeEncoder {
  const approved = new Set<string>();
  const upFront = {
    traders: new Set(preapproved?.traders ?? []),
    routers: new Set(preapproved?.routers ?? []),
  };
  return {
    encode(trades, deadline) {
      const txs: TxRequest[] = [];
      for (const trade of trades) {
        const router = trade.router ?? market.dexes[trade.dex].router;
        const path = trade.path.map((t) => t.address);
        const tokenIn = trade.path[0];
        if (tokenIn === undefined || path.length < 2)
          throw new Error("devnet: a trade needs a path of 2+ tokens");
        const given = upFront.traders.has(trade.trader) && upFront.routers.has(router);
        if (trade.kind !== "ethForTokens" && !given) {
          const key = `${trade.trader}:${tokenIn.address}:${router}`;
          if (!approved.has(key)) {
            approved.add(key);
            txs.push({
              from: trade.trader,
              to: tokenIn.address,
              gas: 100_000n,
              data: encodeFunctionData({
                abi: devnetTokenAbi,
                functionName: "approve",
                args: [router, maxUint256],
              }),
            });
          }
        }
        const hops = BigInt(path.length - 1);
        // Generous explicit gas: anvil then never estimates, and unused gas costs nothing here.
        const gas = 180_000n + 120_000n * (hops - 1n) + (trade.kind === "tokensForTokens" ? 0n : 60_000n);
        const when = BigInt(deadline);
        switch (trade.kind) {
          case "ethForTokens":
            txs.push({
              from: trade.trader,
              to: router,
              gas,
              value: trade.amountIn,
              data: encodeFunctionData({
                abi: uniswapV2RouterAbi,
                functionName: "swapExactETHForTokens",
                args: [0n, path, trade.trader, when],
              }),
            });
            break;
          case "tokensForEth":
            txs.push({
              from: trade.trader,
              to: router,
              gas,
              data: encodeFunctionData({
                abi: uniswapV2RouterAbi,
                functionName: "swapExactTokensForETH",
                args: [trade.amountIn, 0n, path, trade.trader, when],
              }),
            });
            break;
          case "tokensForTokens":
            txs.push({
              from: trade.trader,
              to: router,
              gas,
              data: encodeFunctionData({
                abi: uniswapV2RouterAbi,
                functionName: "swapExactTokensForTokens",
                args: [trade.amountIn, 0n, path, trade.trader, when],
              }),
            });
            break;
          default: {
            const never: never = trade.kind;
            throw new Error(`devnet: unknown trade kind ${String(never)}`);
          }
        }
      }
      return txs;
    },
  };
}
