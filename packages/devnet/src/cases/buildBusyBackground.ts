import { encodeFunctionData, maxUint256 } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import { devnetFarmAbi, devnetTokenAbi, uniswapV2RouterAbi, wrappedNativeAbi } from "../deploy/devnetAbis.js";
import type { BusyBlockContext, BusyUnit } from "./busyBlockTypes.js";
import type { ForeignPool } from "./deployBusyChain.js";

// Log-normal sizes around $300 on the foreign fork, at most 1% of a pool's $200k.
const FOREIGN_MAX_USD = 2_000;

/**
 * A block's background traffic as the mix says: foreign-fork swaps, native and token transfers,
 * approvals, wraps and unwraps, the farm's harvests (each a unit of its own, in that order).
 */
export function buildBusyBackground(ctx: BusyBlockContext, deadline: bigint): BusyUnit[] {
  const { market, busy, mix, prng, listed, summary, countOf, randomAddress, units, sizeUsd } = ctx;
  const { wrapped } = market;
  const accounts = ctx.accounts;
  const out: BusyUnit[] = [];
  for (let k = countOf(mix.foreignSwaps); k > 0; k--) out.push([foreignSwap(ctx, deadline)]);
  for (let k = countOf(mix.nativeTransfers); k > 0; k--) {
    const from = prng.pick(accounts);
    const to = prng.chance(0.7) ? randomAddress() : prng.pick(accounts);
    out.push([{ from, to, gas: 21_000n, data: "0x", value: units(wrapped, sizeUsd(100, 50_000)) }]);
    summary.nativeTransfers++;
  }
  for (let k = countOf(mix.tokenTransfers); k > 0; k--) {
    const token = prng.pick(listed);
    out.push([
      {
        from: prng.pick(accounts),
        to: token.address,
        gas: 80_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "transfer",
          args: [randomAddress(), units(token, sizeUsd(200, 20_000))],
        }),
      },
    ]);
    summary.tokenTransfers++;
  }
  for (let k = countOf(mix.approvals); k > 0; k--) {
    const token = prng.pick([...listed, wrapped]);
    out.push([
      {
        from: prng.pick(accounts),
        to: token.address,
        gas: 60_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "approve",
          args: [randomAddress(), prng.chance(0.5) ? maxUint256 : units(token, sizeUsd(500, 100_000))],
        }),
      },
    ]);
    summary.approvals++;
  }
  for (let k = countOf(mix.wraps); k > 0; k--) {
    const from = prng.pick(accounts);
    const amount = units(wrapped, sizeUsd(200, 20_000));
    out.push([
      prng.chance(0.6)
        ? {
            from,
            to: wrapped.address,
            gas: 60_000n,
            value: amount,
            data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
          }
        : {
            from,
            to: wrapped.address,
            gas: 60_000n,
            data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "withdraw", args: [amount] }),
          },
    ]);
    summary.wraps++;
  }
  for (let k = countOf(mix.protocolCalls); k > 0; k--) {
    const pids = Array.from({ length: prng.int(1, 4) }, () => BigInt(prng.int(0, 40)));
    out.push([
      {
        from: prng.pick(accounts),
        to: busy.farm,
        gas: 60_000n + 10_000n * BigInt(pids.length),
        data: encodeFunctionData({
          abi: devnetFarmAbi,
          functionName: "harvest",
          args: [pids, BigInt(prng.int(1, 1_000_000)) * 10n ** 12n],
        }),
      },
    ]);
    summary.protocolCalls++;
    summary.protocolLogs += pids.length + 1;
  }
  return out;
}

/** A swap of a foreign trader on the foreign fork, either way, around $300. */
function foreignSwap(ctx: BusyBlockContext, deadline: bigint): TxRequest {
  const { busy, prng, summary, units, sizeUsd } = ctx;
  const pool: ForeignPool = prng.pick(busy.foreignPools);
  const from = prng.pick(busy.foreignTraders);
  const usd = sizeUsd(300, FOREIGN_MAX_USD);
  const buy = prng.chance(0.5);
  const [sell, get] = buy ? [pool.b, pool.a] : [pool.a, pool.b];
  const path = [sell.address, get.address];
  const call = (data: `0x${string}`, value = 0n): TxRequest => ({
    from,
    to: busy.foreign.router,
    gas: 250_000n,
    value,
    data,
  });
  summary.foreignSwaps++;
  if (sell.isWrappedNative) {
    return call(
      encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: "swapExactETHForTokens",
        args: [0n, path, from, deadline],
      }),
      units(sell, usd),
    );
  }
  return call(
    encodeFunctionData({
      abi: uniswapV2RouterAbi,
      functionName: get.isWrappedNative ? "swapExactTokensForETH" : "swapExactTokensForTokens",
      args: [units(sell, usd), 0n, path, from, deadline],
    }),
  );
}
