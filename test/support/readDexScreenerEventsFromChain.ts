import { createPublicClient, decodeEventLog, formatUnits, getAddress, http, parseAbi } from "viem";
import type { NetworkConfig } from "../../src/config/types.js";
import type { Address, Hash } from "../../src/domain/types.js";

// The DEX Screener events of a block range as the chain alone tells them, with nothing of
// swapgraph: pools from the configured factories' PairCreated / PoolCreated logs, their Swap,
// Sync, Mint and Burn logs (eth_getLogs), each transaction's signer (eth_getTransaction), token
// decimals (eth_call decimals()), amounts decimalized with viem's formatUnits, and the reserves
// after each event: for a V2 pair from the Sync before it in its transaction; for a V3 pool its
// token balances as the tokens' own Transfer logs to and from it add up (from the chain's first
// block, every transfer at or before the event's log), not the pool's events swapgraph reads.

const abi = parseAbi([
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)",
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
]);
const erc20 = parseAbi(["function decimals() view returns (uint8)"]);
const transferAbi = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);
const pairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]);

/** A pool of a configured factory. */
export interface ChainPool {
  address: Address;
  token0: Address;
  token1: Address;
  v3: boolean;
  /** The factory log that created it. */
  created: { blockNumber: bigint; txHash: Hash };
}

/** What the chain says of one event, in the adapter's words. */
export interface ChainDexEvent {
  block: { blockNumber: number; blockTimestamp: number };
  eventType: "swap" | "join" | "exit";
  txnId: Hash;
  txnIndex: number;
  eventIndex: number;
  maker: string;
  pairId: string;
  /** Raw signed amounts (swap: positive into the pool). */
  raw0: bigint;
  raw1: bigint;
  decimals0: number;
  decimals1: number;
  /** Raw reserves after the event (V2: the Sync; V3: the pool's balances by Transfer logs). */
  reserves?: { reserve0: bigint; reserve1: bigint };
}

const lower = <T extends string>(value: string): T => value.toLowerCase() as T;

/** Every pool of the network's configured factories. */
async function readPools(config: NetworkConfig): Promise<Map<Address, ChainPool>> {
  const client = createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });
  const pools = new Map<Address, ChainPool>();
  for (const dex of config.dexes) {
    const v3 = dex.kind !== "uniswap-v2";
    const logs = await client.getLogs({ address: dex.factory, event: v3 ? abi[1] : abi[0], fromBlock: 0n });
    for (const log of logs) {
      const args = log.args as { token0: string; token1: string; pair?: string; pool?: string };
      const address = lower<Address>((args.pair ?? args.pool)!);
      pools.set(address, {
        address,
        token0: lower(args.token0),
        token1: lower(args.token1),
        v3,
        created: { blockNumber: log.blockNumber!, txHash: lower<Hash>(log.transactionHash!) },
      });
    }
  }
  return pools;
}

/** The events of fromBlock..toBlock as DEX Screener wants them, from the chain only. */
export async function readDexScreenerEventsFromChain(
  config: NetworkConfig,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<{ events: ChainDexEvent[]; pools: Map<Address, ChainPool> }> {
  // JSON-RPC batches: a transaction's signer and a block's time are asked for all at once below
  // (one at a time, a demo history's ~1,000 events took seconds of round trips).
  const client = createPublicClient({
    transport: http(config.rpcUrls[0], { retryCount: 0, timeout: 120_000, batch: { batchSize: 500 } }),
  });
  const pools = await readPools(config);
  const decimals = new Map<Address, number>();
  const decimalsOf = async (token: Address) => {
    let value = decimals.get(token);
    if (value === undefined) {
      value = await client.readContract({ address: token, abi: erc20, functionName: "decimals" });
      decimals.set(token, value);
    }
    return value;
  };
  const logs = await client.getLogs({ address: [...pools.keys()], fromBlock, toBlock });
  // Only the V3 pools with logs in the range have their tokens' transfers read.
  const active = new Set(logs.map((log) => lower<Address>(log.address)));
  const v3Balances = await readV3BalanceSteps(
    client,
    [...pools.values()].filter((pool) => pool.v3 && active.has(pool.address)),
    toBlock,
  );
  const signers = new Map<Hash, string>();
  const timestamps = new Map<bigint, number>();
  const hashes = [...new Set(logs.map((log) => lower<Hash>(log.transactionHash!)))];
  const blockNumbers = [...new Set(logs.map((log) => log.blockNumber!))];
  const [transactions, blocks] = await Promise.all([
    Promise.all(hashes.map((hash) => client.getTransaction({ hash }))),
    Promise.all(blockNumbers.map((blockNumber) => client.getBlock({ blockNumber }))),
  ]);
  for (const [i, hash] of hashes.entries()) signers.set(hash, transactions[i]!.from);
  for (const block of blocks) timestamps.set(block.number, Number(block.timestamp));
  const syncs = new Map<string, { reserve0: bigint; reserve1: bigint }>();
  const events: ChainDexEvent[] = [];
  for (const log of logs) {
    let decoded: { eventName: string; args: Record<string, unknown> };
    try {
      decoded = decodeEventLog({ abi, data: log.data, topics: log.topics }) as typeof decoded;
    } catch {
      continue;
    }
    const pool = pools.get(lower(log.address))!;
    const txHash = lower<Hash>(log.transactionHash!);
    const a = decoded.args as Record<string, bigint>;
    if (decoded.eventName === "Sync") {
      syncs.set(`${txHash}:${pool.address}`, { reserve0: a.reserve0!, reserve1: a.reserve1! });
      continue;
    }
    let type: ChainDexEvent["eventType"];
    let raw0: bigint;
    let raw1: bigint;
    if (decoded.eventName === "Swap") {
      type = "swap";
      raw0 = pool.v3 ? a.amount0! : a.amount0In! - a.amount0Out!;
      raw1 = pool.v3 ? a.amount1! : a.amount1In! - a.amount1Out!;
    } else if (decoded.eventName === "Mint" || decoded.eventName === "Burn") {
      type = decoded.eventName === "Mint" ? "join" : "exit";
      raw0 = a.amount0!;
      raw1 = a.amount1!;
    } else continue;
    events.push({
      block: { blockNumber: Number(log.blockNumber), blockTimestamp: timestamps.get(log.blockNumber!)! },
      eventType: type,
      txnId: txHash,
      txnIndex: log.transactionIndex!,
      eventIndex: log.logIndex!,
      maker: getAddress(signers.get(txHash)!),
      pairId: getAddress(pool.address),
      raw0,
      raw1,
      decimals0: await decimalsOf(pool.token0),
      decimals1: await decimalsOf(pool.token1),
      reserves: pool.v3
        ? balanceAt(v3Balances.get(pool.address) ?? [], log.blockNumber!, log.logIndex!)
        : syncs.get(`${txHash}:${pool.address}`)!,
    });
  }
  return { events, pools };
}

/** A V3 pool's balances after one Transfer log to or from it. */
interface BalanceStep {
  blockNumber: bigint;
  logIndex: number;
  reserve0: bigint;
  reserve1: bigint;
}

/** Each V3 pool's balances after every Transfer of its tokens to or from it, blocks 0..toBlock. */
async function readV3BalanceSteps(
  client: ReturnType<typeof createPublicClient>,
  pools: readonly ChainPool[],
  toBlock: bigint,
): Promise<Map<Address, BalanceStep[]>> {
  const steps = new Map<Address, BalanceStep[]>();
  // Every pool's four Transfer queries at once (one JSON-RPC batch).
  const reads = pools.flatMap((pool) =>
    [pool.token0, pool.token1].flatMap((token, side) =>
      [{ to: pool.address }, { from: pool.address }].map(async (args) => {
        const logs = await client.getLogs({
          address: token,
          event: transferAbi[0],
          args,
          fromBlock: 0n,
          toBlock,
        });
        return logs.map((log) => ({
          pool: pool.address,
          blockNumber: log.blockNumber!,
          logIndex: log.logIndex!,
          side: side as 0 | 1,
          amount: "to" in args ? log.args.value! : -log.args.value!,
        }));
      }),
    ),
  );
  const allMoves = (await Promise.all(reads)).flat();
  for (const pool of pools) {
    const moves = allMoves.filter((move) => move.pool === pool.address);
    moves.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
    let reserve0 = 0n;
    let reserve1 = 0n;
    steps.set(
      pool.address,
      moves.map((move) => {
        if (move.side === 0) reserve0 += move.amount;
        else reserve1 += move.amount;
        return { blockNumber: move.blockNumber, logIndex: move.logIndex, reserve0, reserve1 };
      }),
    );
  }
  return steps;
}

/** The balances after the last step at or before (blockNumber, logIndex). */
function balanceAt(steps: readonly BalanceStep[], blockNumber: bigint, logIndex: number) {
  let found = { reserve0: 0n, reserve1: 0n };
  for (const step of steps) {
    if (step.blockNumber > blockNumber || (step.blockNumber === blockNumber && step.logIndex > logIndex))
      break;
    found = { reserve0: step.reserve0, reserve1: step.reserve1 };
  }
  return found;
}

/** getReserves of a V2 pair at the end of a block (eth_call at that block). */
export async function readReservesAt(config: NetworkConfig, pair: string, blockNumber: number) {
  const client = createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });
  const [reserve0, reserve1] = await client.readContract({
    address: pair as Address,
    abi: pairAbi,
    functionName: "getReserves",
    blockNumber: BigInt(blockNumber),
  });
  return { reserve0, reserve1 };
}

const abs = (value: bigint) => (value < 0n ? -value : value);

/** The adapter's JSON for a chain event: formatUnits for amounts, a bigint quotient for the price. */
export function expectedJson(event: ChainDexEvent): Record<string, unknown> | undefined {
  const { raw0, raw1, decimals0, decimals1 } = event;
  const head = {
    block: event.block,
    eventType: event.eventType,
    txnId: event.txnId,
    txnIndex: event.txnIndex,
    eventIndex: event.eventIndex,
    maker: event.maker,
    pairId: event.pairId,
  };
  const reserves =
    event.reserves === undefined
      ? {}
      : {
          reserves: {
            asset0: formatUnits(event.reserves.reserve0, decimals0),
            asset1: formatUnits(event.reserves.reserve1, decimals1),
          },
        };
  const amount0 = formatUnits(abs(raw0), decimals0);
  const amount1 = formatUnits(abs(raw1), decimals1);
  if (event.eventType !== "swap") return { ...head, amount0, amount1, ...reserves };
  if (raw0 === 0n || raw1 === 0n || raw0 > 0n === raw1 > 0n) return undefined;
  const price = (abs(raw1) * 10n ** BigInt(decimals0) * 10n ** 50n) / (abs(raw0) * 10n ** BigInt(decimals1));
  const sides =
    raw0 > 0n ? { asset0In: amount0, asset1Out: amount1 } : { asset1In: amount1, asset0Out: amount0 };
  return { ...head, ...sides, priceNative: formatUnits(price, 50), ...reserves };
}
