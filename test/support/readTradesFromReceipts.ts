import { createPublicClient, decodeEventLog, type Hex, http, parseAbi, toEventSelector } from "viem";
import type { NetworkConfig } from "../../src/config/types.js";
import type { Address, Hash, Trade } from "../../src/domain/types.js";

/** The fields of a trade the chain alone determines. */
export type ChainTrade = Pick<
  Trade,
  | "txHash"
  | "logIndex"
  | "blockNumber"
  | "sender"
  | "tokenIn"
  | "amountIn"
  | "tokenOut"
  | "amountOut"
  | "pools"
>;

/** The chain-determined fields of stored trades, to compare with readTradesFromReceipts. */
export function projectChainTrades(trades: readonly ChainTrade[]): ChainTrade[] {
  return trades.map(
    ({ txHash, logIndex, blockNumber, sender, tokenIn, amountIn, tokenOut, amountOut, pools }) => ({
      txHash,
      logIndex,
      blockNumber,
      sender,
      tokenIn,
      amountIn,
      tokenOut,
      amountOut,
      pools,
    }),
  );
}

const abi = parseAbi([
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);

/** A Deposit or Withdrawal of the wrapped native coin: who was minted or burnt how much, where. */
interface Wrap {
  account: Address;
  value: bigint;
  logIndex: number;
}

// V3 pools (Uniswap's and PancakeSwap's Swap layouts): every event that moves coins ends a
// pool's flows, so what moved since the pool's previous event belongs to the next one.
const v3Abi = parseAbi([
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Collect(address indexed owner, address recipient, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount0, uint128 amount1)",
  "event Flash(address indexed sender, address indexed recipient, uint256 amount0, uint256 amount1, uint256 paid0, uint256 paid1)",
  "event CollectProtocol(address indexed sender, address indexed recipient, uint128 amount0, uint128 amount1)",
]);

function decodeV3(log: RawLog) {
  try {
    return decodeEventLog({ abi: v3Abi, data: log.data, topics: log.topics });
  } catch {
    return undefined;
  }
}

interface Flow {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
}

interface Leg {
  pair: Address;
  logIndex: number;
  tokenIn: Address;
  amountIn: bigint;
  tokenOut: Address;
  amountOut: bigint;
  /** Where the pair sent its output (every Transfer out of it since its last Sync). */
  outflows: Flow[];
}

// Receipts as eth_getBlockReceipts returns them: quantities are hex.
type RawLog = { address: Hex; data: Hex; topics: [Hex, ...Hex[]] | []; logIndex: Hex };

const lower = <T extends string>(value: string): T => value.toLowerCase() as T;

// Topics of the events `decode` knows: any other log is skipped without a throw and catch
// (viem builds a whole error for each; a BSC-shaped chain's receipts hold thousands of them).
const KNOWN_TOPICS = new Set<string>(abi.map((item) => toEventSelector(item)));

function decode(log: RawLog) {
  if (log.topics[0] === undefined || !KNOWN_TOPICS.has(log.topics[0])) return undefined;
  try {
    return decodeEventLog({ abi, data: log.data, topics: log.topics });
  } catch {
    return undefined;
  }
}

// Blocks read ahead of the one being decoded.
const AHEAD = 16n;

/**
 * Reads the trades of blocks with timestamp >= fromTimestamp from the chain alone, independently
 * of the indexer: the configured factories' pairs from their PairCreated logs, and from every
 * successful receipt the pairs' Transfer, Sync and Swap logs. What a pair took in is what was
 * transferred to it since its last Sync (so a transfer in an earlier transaction of a direct pair
 * swap counts), what it gave out is what it transferred away. Swaps of one transaction chain when
 * one pair's output went to the next pair, directly or through one account forwarding the same
 * amount. The native coin is a trade's input when the wrapped coin its first pair took in was
 * transferred to it, in that very amount, by an account the wrapped coin's Deposit minted that
 * amount to earlier in the transaction; it is the output when the last pair's wrapped output went
 * to an account that burnt that amount in a Withdrawal later in the transaction. Each Deposit and
 * Withdrawal counts for one trade; no router list is consulted.
 */
export async function readTradesFromReceipts(
  config: NetworkConfig,
  fromTimestamp: number,
): Promise<ChainTrade[]> {
  // A generous deadline: anvil may still be busy with an indexer's historical reads when this
  // starts on a loaded machine (viem's default 10 s timed out on a BSC-shaped block's receipts).
  const client = createPublicClient({
    transport: http(config.rpcUrls[0], { retryCount: 0, timeout: 120_000 }),
  });
  const wrapped = lower<Address>(config.native.wrapped);
  const pairs = new Map<Address, { token0: Address; token1: Address; v3?: true }>();
  for (const dex of config.dexes) {
    if (dex.kind !== "uniswap-v2") {
      const pools = await client.getLogs({
        address: dex.factory,
        event: v3Abi[0],
        fromBlock: 0n,
        toBlock: "latest",
      });
      for (const log of pools) {
        pairs.set(lower(log.args.pool as string), {
          token0: lower(log.args.token0 as string),
          token1: lower(log.args.token1 as string),
          v3: true,
        });
      }
      continue;
    }
    const created = await client.getLogs({
      address: dex.factory,
      event: abi[0],
      fromBlock: 0n,
      toBlock: "latest",
    });
    for (const log of created) {
      pairs.set(lower(log.args.pair as string), {
        token0: lower(log.args.token0 as string),
        token1: lower(log.args.token1 as string),
      });
    }
  }

  const head = await client.getBlockNumber({ cacheTime: 0 });
  // Blocks are read AHEAD at a time (one at a time, a week's chain took ~10 s to read).
  let first = head + 1n;
  for (let top = head; top >= 0n && first === top + 1n; top -= AHEAD) {
    const numbers = Array.from({ length: Number(AHEAD) }, (_, i) => top - BigInt(i)).filter((n) => n >= 0n);
    const blocks = await Promise.all(numbers.map((n) => client.getBlock({ blockNumber: n })));
    for (const block of blocks) {
      if (Number(block.timestamp) < fromTimestamp) break;
      first = block.number;
    }
  }
  const readBlock = (n: bigint) =>
    Promise.all([
      client.getBlock({ blockNumber: n, includeTransactions: true }),
      client.request({ method: "eth_getBlockReceipts", params: [`0x${n.toString(16)}`] }) as Promise<
        { transactionHash: Hash; status: Hex; logs: RawLog[] }[]
      >,
    ]);
  const ahead = new Map<bigint, ReturnType<typeof readBlock>>();
  // Only blocks where a known pool logs or a token moves to or from one can hold a trade or a flow
  // a later trade counts: the others (a setup block of 2,500 funding transfers took 3.5 s of the
  // node's time for its receipts) are not read. Asked of the node's log index by address and topic.
  const wanted = await blocksTouchingPools(client, [...pairs.keys()], first, head);

  const out: ChainTrade[] = [];
  // Per pair since its last Sync: what flowed in and out, across transactions.
  const inflows = new Map<Address, Flow[]>();
  const outflows = new Map<Address, Flow[]>();
  const settled = new Map<Address, { inflows: Flow[]; outflows: Flow[] }>();
  for (const [index, n] of wanted.entries()) {
    for (const k of wanted.slice(index, index + Number(AHEAD))) if (!ahead.has(k)) ahead.set(k, readBlock(k));
    const [block, receipts] = await ahead.get(n)!;
    ahead.delete(n);
    const txByHash = new Map(block.transactions.map((tx) => [lower<Hash>(tx.hash), tx]));
    for (const receipt of receipts) {
      if (receipt.status !== "0x1") continue;
      const tx = txByHash.get(lower<Hash>(receipt.transactionHash));
      if (tx === undefined) throw new Error(`no transaction ${receipt.transactionHash} in block ${n}`);
      const flows: (Flow & { logIndex: number })[] = [];
      const legs: Leg[] = [];
      const deposits: Wrap[] = [];
      const withdrawals: Wrap[] = [];
      for (const log of receipt.logs) {
        const emitter = lower<Address>(log.address);
        if (pairs.get(emitter)?.v3 === true) {
          const leg = v3Leg(emitter, pairs.get(emitter)!, log, inflows, outflows);
          if (leg !== undefined) legs.push(leg);
          continue;
        }
        const event = decode(log);
        if (event === undefined) continue;
        if (event.eventName === "Deposit" || event.eventName === "Withdrawal") {
          if (emitter !== wrapped) continue;
          const [account, list] =
            event.eventName === "Deposit" ? [event.args.dst, deposits] : [event.args.src, withdrawals];
          list.push({
            account: lower<Address>(account),
            value: event.args.wad,
            logIndex: Number(log.logIndex),
          });
          continue;
        }
        if (event.eventName === "Transfer") {
          const flow = {
            token: emitter,
            from: lower<Address>(event.args.from),
            to: lower<Address>(event.args.to),
            value: event.args.value,
          };
          flows.push({ ...flow, logIndex: Number(log.logIndex) });
          if (pairs.has(flow.to)) inflows.set(flow.to, [...(inflows.get(flow.to) ?? []), flow]);
          if (pairs.has(flow.from)) outflows.set(flow.from, [...(outflows.get(flow.from) ?? []), flow]);
          continue;
        }
        const pair = pairs.get(emitter);
        if (pair === undefined) continue;
        // A pair syncs after every swap, mint and burn, after moving the coins and before the Swap
        // log: what flowed since the previous Sync belongs to this one.
        if (event.eventName === "Sync") {
          settled.set(emitter, {
            inflows: inflows.get(emitter) ?? [],
            outflows: outflows.get(emitter) ?? [],
          });
          inflows.delete(emitter);
          outflows.delete(emitter);
        } else if (event.eventName === "Swap") {
          const moved = settled.get(emitter) ?? { inflows: [], outflows: [] };
          const sum = (list: Flow[], token: Address) =>
            list.filter((f) => f.token === token).reduce((s, f) => s + f.value, 0n);
          const in0 = sum(moved.inflows, pair.token0);
          const in1 = sum(moved.inflows, pair.token1);
          const zeroIn = in0 > in1;
          legs.push({
            pair: emitter,
            logIndex: Number(log.logIndex),
            tokenIn: zeroIn ? pair.token0 : pair.token1,
            amountIn: zeroIn ? in0 : in1,
            tokenOut: zeroIn ? pair.token1 : pair.token0,
            amountOut: sum(moved.outflows, zeroIn ? pair.token1 : pair.token0),
            outflows: moved.outflows,
          });
        }
      }
      let chain: Leg[] = [];
      const spent = new Set<Wrap>();
      const flush = () => {
        const head = chain[0];
        const tail = chain[chain.length - 1];
        if (head === undefined || tail === undefined) return;
        // Input: a transfer of the wrapped coin into the first pair from an account minted
        // exactly that amount before it.
        const minted = flows
          .filter((f) => f.token === wrapped && f.to === head.pair && head.tokenIn === wrapped)
          .flatMap((f) =>
            deposits.filter(
              (d) => !spent.has(d) && d.account === f.from && d.value === f.value && d.logIndex < f.logIndex,
            ),
          )[0];
        // Output: the last pair's wrapped output to an account that burnt exactly that amount after.
        const burnt = tail.outflows
          .filter((f) => f.token === wrapped && tail.tokenOut === wrapped)
          .flatMap((f) =>
            withdrawals.filter(
              (w) => !spent.has(w) && w.account === f.to && w.value === f.value && w.logIndex > tail.logIndex,
            ),
          )[0];
        for (const wrap of [minted, burnt]) if (wrap !== undefined) spent.add(wrap);
        const nativeIn = minted !== undefined;
        const nativeOut = burnt !== undefined;
        out.push({
          txHash: lower<Hash>(receipt.transactionHash),
          logIndex: head.logIndex,
          blockNumber: n,
          sender: lower<Address>(tx.from),
          tokenIn: nativeIn ? "" : head.tokenIn,
          amountIn: head.amountIn,
          tokenOut: nativeOut ? "" : tail.tokenOut,
          amountOut: tail.amountOut,
          pools: chain.map((leg) => leg.pair),
        });
        chain = [];
      };
      for (const leg of legs) {
        const previous = chain[chain.length - 1];
        if (previous !== undefined && !fedBy(previous, leg, flows)) flush();
        chain.push(leg);
      }
      flush();
    }
  }
  return out;
}

/**
 * A V3 pool's log: a Swap is a leg made of what flowed in and out of the pool since its previous
 * event (the pool pays out, then takes the input in its callback, then logs); every event of the
 * pool (Swap, Mint, Collect, Flash, ...) ends the flows it accounts for.
 */
function v3Leg(
  pool: Address,
  tokens: { token0: Address; token1: Address },
  log: RawLog,
  inflows: Map<Address, Flow[]>,
  outflows: Map<Address, Flow[]>,
): Leg | undefined {
  const event = decodeV3(log);
  if (event === undefined) return undefined;
  const moved = { inflows: inflows.get(pool) ?? [], outflows: outflows.get(pool) ?? [] };
  inflows.delete(pool);
  outflows.delete(pool);
  if (event.eventName !== "Swap") return undefined;
  const sum = (list: Flow[], token: Address) =>
    list.filter((f) => f.token === token).reduce((s, f) => s + f.value, 0n);
  const in0 = sum(moved.inflows, tokens.token0);
  const in1 = sum(moved.inflows, tokens.token1);
  const zeroIn = in0 > in1;
  return {
    pair: pool,
    logIndex: Number(log.logIndex),
    tokenIn: zeroIn ? tokens.token0 : tokens.token1,
    amountIn: zeroIn ? in0 : in1,
    tokenOut: zeroIn ? tokens.token1 : tokens.token0,
    amountOut: sum(moved.outflows, zeroIn ? tokens.token1 : tokens.token0),
    outflows: moved.outflows,
  };
}

/** The leg's input came from `previous`: sent to its pair directly, or forwarded whole by the one who got it. */
function fedBy(previous: Leg, leg: Leg, flows: readonly Flow[]): boolean {
  if (previous.tokenOut !== leg.tokenIn) return false;
  return previous.outflows.some(
    (out) =>
      out.token === leg.tokenIn &&
      (out.to === leg.pair ||
        flows.some(
          (f) => f.token === out.token && f.from === out.to && f.to === leg.pair && f.value === out.value,
        )),
  );
}

const TRANSFER_TOPIC = toEventSelector("Transfer(address,address,uint256)");

/** The blocks first..head, ascending, where one of `pools` logs or a token moves to or from one. */
async function blocksTouchingPools(
  client: ReturnType<typeof createPublicClient>,
  pools: readonly Address[],
  first: bigint,
  head: bigint,
): Promise<bigint[]> {
  if (pools.length === 0 || first > head) return [];
  const range = { fromBlock: `0x${first.toString(16)}`, toBlock: `0x${head.toString(16)}` };
  const padded = pools.map((pool) => `0x${pool.slice(2).padStart(64, "0")}`);
  const queries = [
    { ...range, address: pools },
    { ...range, topics: [TRANSFER_TOPIC, padded] },
    { ...range, topics: [TRANSFER_TOPIC, null, padded] },
  ];
  const answers = (await Promise.all(
    queries.map((query) => client.request({ method: "eth_getLogs", params: [query] } as never)),
  )) as { blockNumber: Hex }[][];
  const numbers = new Set(answers.flat().map((log) => BigInt(log.blockNumber)));
  return [...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
