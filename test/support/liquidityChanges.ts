import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  maxUint256,
  parseAbi,
} from "viem";

const routerAbi = parseAbi([
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  "function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)",
  "function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256 amountToken, uint256 amountETH)",
]);
const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function balanceOf(address) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function burn(address to) returns (uint256 amount0, uint256 amount1)",
]);
const DEADLINE = 2n ** 40n;

/** One change of a devnet pair's liquidity, sent without mining (the caller mines the block). */
export type LiquidityChange =
  /** The deployer (who seeded every pool) removes `bps` of its LP tokens through the router, paid to `to`. */
  | { kind: "remove"; pool: Address; bps: bigint; to: Address }
  /** The same for a pool of the wrapped coin, unwrapped by the router (removeLiquidityETH: the router is the Burn's `to`). */
  | { kind: "removeNative"; pool: Address; bps: bigint; to: Address }
  /** The deployer sends `bps` of its LP tokens to the pair and calls burn itself: no router. */
  | { kind: "burnDirect"; pool: Address; bps: bigint; to: Address }
  /**
   * `account` adds `bps` of its balance of each token through the router (which takes the share
   * at the pool's ratio), LP tokens to `account`: the Mint's sender is the router.
   */
  | { kind: "add"; pool: Address; account: Address; bps: bigint };

/**
 * Sends the transactions of `changes` in order from unlocked accounts (approvals first) with
 * explicit gas, so they can wait in one unmined block. Returns the hash of each change's
 * liquidity transaction.
 */
export async function sendLiquidityChanges(
  chain: DevnetChainInfo,
  changes: readonly LiquidityChange[],
): Promise<Hash[]> {
  const transport = http(chain.rpcUrl, { retryCount: 0 });
  const client = createPublicClient({ transport });
  const router = chain.dexes[0]!.router;
  const hashes: Hash[] = [];
  for (const change of changes) {
    const from = change.kind === "add" ? change.account : chain.deployer;
    const wallet = createWalletClient({ account: from, transport });
    const send = (to: Address, data: Hex) =>
      wallet.sendTransaction({ chain: null, to, data, gas: 1_500_000n });
    const read = <T>(functionName: "token0" | "token1"): Promise<T> =>
      client.readContract({ address: change.pool, abi: pairAbi, functionName }) as Promise<T>;
    const [token0, token1] = await Promise.all([read<Address>("token0"), read<Address>("token1")]);
    const balanceOf = (token: Address) =>
      client.readContract({ address: token, abi: pairAbi, functionName: "balanceOf", args: [from] });
    if (change.kind === "add") {
      for (const token of [token0, token1]) {
        await send(
          token,
          encodeFunctionData({ abi: pairAbi, functionName: "approve", args: [router, maxUint256] }),
        );
      }
      const amount0 = ((await balanceOf(token0)) * change.bps) / 10_000n;
      const amount1 = ((await balanceOf(token1)) * change.bps) / 10_000n;
      const args = [token0, token1, amount0, amount1, 0n, 0n, from, DEADLINE] as const;
      hashes.push(
        await send(router, encodeFunctionData({ abi: routerAbi, functionName: "addLiquidity", args })),
      );
      continue;
    }
    const liquidity = ((await balanceOf(change.pool)) * change.bps) / 10_000n;
    if (change.kind === "burnDirect") {
      await send(
        change.pool,
        encodeFunctionData({ abi: pairAbi, functionName: "transfer", args: [change.pool, liquidity] }),
      );
      hashes.push(
        await send(
          change.pool,
          encodeFunctionData({ abi: pairAbi, functionName: "burn", args: [change.to] }),
        ),
      );
      continue;
    }
    await send(
      change.pool,
      encodeFunctionData({ abi: pairAbi, functionName: "approve", args: [router, maxUint256] }),
    );
    if (change.kind === "remove") {
      const args = [token0, token1, liquidity, 0n, 0n, change.to, DEADLINE] as const;
      hashes.push(
        await send(router, encodeFunctionData({ abi: routerAbi, functionName: "removeLiquidity", args })),
      );
    } else {
      const token = token0.toLowerCase() === chain.wrapped.toLowerCase() ? token1 : token0;
      const args = [token, liquidity, 0n, 0n, change.to, DEADLINE] as const;
      hashes.push(
        await send(router, encodeFunctionData({ abi: routerAbi, functionName: "removeLiquidityETH", args })),
      );
    }
  }
  return hashes;
}
