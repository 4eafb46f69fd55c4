import {
  type Address,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hash,
  keccak256,
  maxUint256,
} from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import { devnetTokenAbi, uniswapV2RouterAbi } from "../deploy/devnetAbis.js";
import type { DevnetDex, DevnetPool, DevnetToken } from "../devnetTypes.js";
import { parseUsd } from "../usdToUnits.js";
import type { PlannedPool } from "./planLiquidity.js";

/**
 * Sends the deployer's router approvals and one addLiquidity (addLiquidityETH for the wrapped
 * native side) per planned pool; the router's factory creates each pair. Not mined yet.
 */
export async function seedLiquidity(
  writer: ChainWriter,
  options: {
    deployer: Address;
    tokens: Map<string, DevnetToken>;
    dexes: readonly [DevnetDex, DevnetDex];
    plan: PlannedPool[];
    pairInitCodeHash: Hash;
  },
): Promise<{ pools: DevnetPool[]; hashes: Hash[] }> {
  const { deployer, tokens, dexes } = options;
  const token = (symbol: string): DevnetToken => {
    const found = tokens.get(symbol);
    if (found === undefined) throw new Error(`devnet: token ${symbol} was not deployed`);
    return found;
  };
  const txs: TxRequest[] = [];
  const approved = new Set<string>();
  const pools: DevnetPool[] = [];
  for (const { spec, amountA, amountB } of options.plan) {
    const dex = dexes[spec.dex];
    const a = token(spec.a);
    const b = token(spec.b);
    for (const t of [a, b]) {
      const key = `${t.address}:${dex.router}`;
      if (t.isWrappedNative || approved.has(key)) continue;
      approved.add(key);
      txs.push({
        from: deployer,
        to: t.address,
        gas: 100_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "approve",
          args: [dex.router, maxUint256],
        }),
      });
    }
    const native = a.isWrappedNative ? { token: b, amount: amountB, value: amountA } : undefined;
    const nativeB = b.isWrappedNative ? { token: a, amount: amountA, value: amountB } : undefined;
    const eth = native ?? nativeB;
    txs.push(
      eth === undefined
        ? {
            from: deployer,
            to: dex.router,
            gas: 5_000_000n,
            data: encodeFunctionData({
              abi: uniswapV2RouterAbi,
              functionName: "addLiquidity",
              args: [a.address, b.address, amountA, amountB, 0n, 0n, deployer, maxUint256],
            }),
          }
        : {
            from: deployer,
            to: dex.router,
            gas: 5_000_000n,
            value: eth.value,
            data: encodeFunctionData({
              abi: uniswapV2RouterAbi,
              functionName: "addLiquidityETH",
              args: [eth.token.address, eth.amount, 0n, 0n, deployer, maxUint256],
            }),
          },
    );
    const [token0, token1] = a.address < b.address ? [a.address, b.address] : [b.address, a.address];
    pools.push({
      dex: spec.dex,
      address: getContractAddress({
        opcode: "CREATE2",
        from: dex.factory,
        salt: keccak256(encodePacked(["address", "address"], [token0, token1])),
        bytecodeHash: options.pairInitCodeHash,
      }).toLowerCase() as Address,
      a,
      b,
      tvlUsd: spec.tvlUsd,
      ...(spec.priceA === undefined ? {} : { priceAE18: parseUsd(spec.priceA) }),
      thin: spec.thin === true,
      wash: spec.wash === true,
      unlisted: !a.listed || !b.listed,
    });
  }
  return { pools, hashes: await writer.send(txs) };
}
