import { type Log, parseEventLogs } from "viem";
import { pairEventsAbi } from "../chain/abis.js";
import { createLogFetcher } from "../chain/createLogFetcher.js";
import type { RpcClient } from "../chain/createRpcClient.js";
import { findBlockByTimestamp } from "../chain/findBlockByTimestamp.js";
import { getPairAddress } from "../chain/getPairAddress.js";
import { readPairInfo } from "../chain/readPairInfo.js";
import { readReserves } from "../chain/readReserves.js";
import { readTokenMetadata } from "../chain/readTokenMetadata.js";
import type { NetworkConfig } from "../config/types.js";
import type {
  Address,
  BlockRef,
  Checkpoint,
  Hash,
  Pair,
  PairReserves,
  Token,
  Trade,
} from "../domain/types.js";
import { NATIVE } from "../domain/types.js";
import { BadRequestError, DeepReorgError, LostWriterLockError, SwapgraphError } from "../errors.js";
import type { PoolState, PricingParams } from "../pricing/types.js";
import { valueTradeUsd } from "../pricing/valueTradeUsd.js";
import type { Store } from "../store/types.js";
import { buildTrade, type SwapEvent, type TxInfo } from "./buildTrades.js";
import { type LiveViews, listTokens } from "./createLiveViews.js";
import { createSleeper } from "./createSleeper.js";

/** Minimal logger the indexer writes to (pino fits). */
export interface IndexerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Progress of the backfill, reported after every committed range until the head is reached. */
export interface IndexerProgress {
  network: string;
  /** First block this run indexed. */
  fromBlock: bigint;
  indexedBlock: bigint;
  headBlock: bigint;
  /** Trades committed by this run so far. */
  trades: number;
  /** Milliseconds since this run started indexing. */
  elapsedMs: number;
  /** True on the report that reached the head. */
  done: boolean;
}

export interface NetworkIndexer {
  /** Runs until stop() or a fatal error (a reorg deeper than the window); resolves when it ends. */
  run(): Promise<void>;
  /** Stops after the range in flight; resolves when run() has returned. */
  stop(): Promise<void>;
  /** Reads an unknown token's metadata and discovers and follows its pools with the base tokens. */
  resolveToken(address: Address): Promise<Token>;
}

interface BlockData extends BlockRef {
  txs: Map<Hash, TxInfo>;
}

const DAY = 86_400;

/**
 * Creates the indexer of one network: backfills the window with eth_getLogs, follows the head,
 * detects reorgs by parentHash, decodes Swap and Sync of the configured factories' pairs into
 * trades valued in USD, and commits each range with its checkpoint in one store transaction;
 * the live views follow each commit.
 */
export function createNetworkIndexer(deps: {
  config: NetworkConfig;
  client: RpcClient;
  store: Store;
  views: LiveViews;
  log: IndexerLogger;
  /** Unix seconds; injectable so tests can pin "now". */
  now?: () => number;
  onProgress?: (progress: IndexerProgress) => void;
}): NetworkIndexer {
  const { config, client, store, views, log } = deps;
  const network = config.name;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const wrapped = config.native.wrapped;
  const routers = new Set(config.dexes.flatMap((dex) => (dex.router === undefined ? [] : [dex.router])));
  const factories = config.dexes.map((dex) => ({ name: dex.name, factory: dex.factory, feeBps: dex.feeBps }));

  const pairs = new Map<Address, Pair>();
  const rejected = new Set<Address>();
  const tokens = new Map<Address, Token>();
  let checkpoint: Checkpoint | undefined;
  let stopping = false;
  const sleeper = createSleeper();
  let running: Promise<void> | undefined;
  // The range the provider accepts is learned once and carries over from range to range.
  const fetcher = createLogFetcher({ client, events: pairEventsAbi, maxRange: config.maxLogRange, log });
  // Store writes of the loop and of token discovery (an API request) never interleave.
  let writes: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = writes.then(fn);
    writes = result.catch(() => undefined);
    return result;
  }

  const pricing: PricingParams = {
    wrappedNative: wrapped,
    stablecoins: new Set(config.stablecoins),
    baseTokens: new Set(config.baseTokens),
    minLiquidityUsd: config.minLiquidityUsd,
    decimals: (token) => tokens.get(token)?.decimals,
  };

  async function loadFromStore(): Promise<void> {
    for (const token of listTokens(config)) tokens.set(token.address as Address, token);
    for (const token of await store.listTokens(network)) tokens.set(token.address as Address, token);
    for (const pair of await store.listPairs(network)) pairs.set(pair.address, pair);
    for (const address of await store.listRejectedPairs(network)) rejected.add(address);
    const reserves = await store.listReserves(network);
    const pools = poolsFrom(reserves);
    const trades = await store.listTrades(network, windowStart());
    views.load(network, { tokens: [...tokens.values()], pools, trades });
    checkpoint = await store.getCheckpoint(network);
    views.setStatus(network, { indexedBlock: checkpoint?.blockNumber });
  }

  function poolsFrom(reserves: readonly PairReserves[]): PoolState[] {
    const byPair = new Map(reserves.map((row) => [row.pair, row]));
    const pools: PoolState[] = [];
    for (const pair of pairs.values()) {
      const row = byPair.get(pair.address);
      pools.push({ ...pair, reserve0: row?.reserve0 ?? 0n, reserve1: row?.reserve1 ?? 0n });
    }
    return pools;
  }

  // The window starts `windowDays` before now: it covers the oldest UTC day the daily volumes show.
  function windowStart(): number {
    return now() - config.windowDays * DAY;
  }

  async function ensureTokens(addresses: Iterable<Address>): Promise<Token[]> {
    const missing = [...new Set(addresses)].filter((address) => !tokens.has(address));
    const read = await Promise.all(missing.map((address) => readTokenMetadata(client, address, { network })));
    for (const token of read) tokens.set(token.address as Address, token);
    if (read.length > 0) {
      await store.upsertTokens(network, read);
      views.addTokens(network, read);
    }
    return read;
  }

  /** Checks unknown pool addresses against the configured factories; returns the accepted ones. */
  async function classifyPairs(addresses: Iterable<Address>): Promise<Pair[]> {
    const unknown = [...new Set(addresses)].filter(
      (address) => !pairs.has(address) && !rejected.has(address),
    );
    if (unknown.length === 0) return [];
    const infos = await Promise.all(unknown.map((address) => readPairInfo(client, address, factories)));
    const accepted: Pair[] = [];
    const refused: Address[] = [];
    for (const [i, info] of infos.entries()) {
      const address = unknown[i]!;
      if (info === undefined) refused.push(address);
      else accepted.push(info);
    }
    // A pair whose token is not a readable ERC-20 cannot be priced or shown: refuse it too.
    const usable: Pair[] = [];
    for (const pair of accepted) {
      try {
        await ensureTokens([pair.token0, pair.token1]);
        usable.push(pair);
      } catch (error) {
        // Only a definite "not an ERC-20" refuses for good; RPC trouble retries the range.
        if (!(error instanceof BadRequestError)) throw error;
        log.warn({ network, pair: pair.address, err: error.message }, "pair refused: token is not an ERC-20");
        refused.push(pair.address);
      }
    }
    for (const pair of usable) pairs.set(pair.address, pair);
    for (const address of refused) rejected.add(address);
    if (refused.length > 0) await store.addRejectedPairs(network, refused);
    return usable;
  }

  async function getBlockRef(number: bigint): Promise<BlockRef> {
    const block = await client.getBlock({ blockNumber: number });
    return {
      number,
      hash: block.hash as Hash,
      parentHash: block.parentHash as Hash,
      timestamp: Number(block.timestamp),
    };
  }

  async function getBlockData(number: bigint): Promise<BlockData> {
    const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
    const timestamp = Number(block.timestamp);
    const txs = new Map<Hash, TxInfo>();
    for (const tx of block.transactions) {
      txs.set(tx.hash.toLowerCase() as Hash, {
        txIndex: tx.transactionIndex ?? 0,
        from: tx.from.toLowerCase() as Address,
        to: tx.to === null ? undefined : (tx.to.toLowerCase() as Address),
        value: tx.value,
        timestamp,
      });
    }
    return {
      number,
      hash: block.hash as Hash,
      parentHash: block.parentHash as Hash,
      timestamp,
      txs,
    };
  }

  /** First indexing of this network: find the start block and seed the pools of the token list. */
  async function initialize(): Promise<Checkpoint> {
    const start = config.startBlock ?? (await findBlockByTimestamp(client, windowStart()));
    const before = start > 0n ? start - 1n : 0n;
    const ref = await getBlockRef(before);
    // Pools that hold listed tokens but do not trade early in the window still price and route.
    const listed = [
      ...new Set([...listTokens(config).map((t) => t.address as Address), ...config.baseTokens]),
    ];
    const seen = new Set<string>();
    const lookups: Promise<Address>[] = [];
    for (const dex of config.dexes) {
      for (const base of config.baseTokens) {
        for (const token of listed) {
          const key = `${dex.factory}:${token < base ? `${token}:${base}` : `${base}:${token}`}`;
          if (token === base || seen.has(key)) continue;
          seen.add(key);
          lookups.push(getPairAddress(client, dex.factory, token, base));
        }
      }
    }
    const candidates = await Promise.all(lookups);
    const found = await classifyPairs(candidates.filter((a: Address) => !/^0x0{40}$/.test(a)));
    const reserves = await Promise.all(
      found.map(async (pair) => {
        const r = await readReserves(client, pair.address, before);
        return {
          pair: pair.address,
          blockNumber: before,
          logIndex: -1,
          reserve0: r.reserve0,
          reserve1: r.reserve1,
        };
      }),
    );
    const cp = { blockNumber: before, blockHash: ref.hash };
    await store.commitRange(network, { checkpoint: cp, blocks: [ref], pairs: found, reserves, trades: [] });
    log.info({ network, startBlock: start, seededPools: found.length }, "backfill starts");
    return cp;
  }

  /** Walks back the stored blocks to the newest one still canonical; halts on a reorg deeper than the window. */
  async function handleReorg(head: bigint): Promise<void> {
    const stored = await store.listBlocks(network);
    for (let i = stored.length - 1; i >= 0; i--) {
      const block = stored[i]!;
      // Blocks above the new head are gone with the old branch.
      if (block.number > head) continue;
      const canonical = await getBlockRef(block.number);
      if (canonical.hash !== block.hash) continue;
      const depth = checkpoint!.blockNumber - block.number;
      if (depth > BigInt(config.finalityDepth)) break;
      log.warn(
        { network, from: checkpoint!.blockNumber, to: block.number, depth, head },
        "reorg: rolling back",
      );
      await store.rollback(network, { blockNumber: block.number, blockHash: block.hash });
      await reload();
      return;
    }
    throw new DeepReorgError(
      `Reorg on ${network} deeper than the unfinalized window of ${config.finalityDepth} blocks: no stored block at or below ${checkpoint!.blockNumber} is canonical. The indexer stopped instead of serving wrong data.`,
    );
  }

  async function reload(): Promise<void> {
    pairs.clear();
    rejected.clear();
    await loadFromStore();
  }

  /** Indexes blocks [from, to] and commits them with the checkpoint; false when a reorg was handled instead. */
  async function indexRange(from: bigint, to: bigint, head: bigint): Promise<number> {
    const cp = checkpoint!;
    const first = await getBlockRef(from);
    if (first.parentHash !== cp.blockHash) {
      await handleReorg(head);
      return -1;
    }
    const logs: Log[] = [];
    for await (const chunk of fetcher.chunks(from, to)) for (const item of chunk.logs) logs.push(item);
    const last = to === from ? first : await getBlockRef(to);

    // Blocks within reach of a reorg are all fetched and their links checked; older ones only where logs are.
    const unfinalizedFrom = head - BigInt(config.finalityDepth);
    const numbers = new Set<bigint>();
    for (const item of logs) numbers.add(item.blockNumber as bigint);
    for (let n = from > unfinalizedFrom ? from : unfinalizedFrom; n <= to; n++) numbers.add(n);
    const blocks = new Map<bigint, BlockData>();
    await Promise.all(
      [...numbers].map(async (n) => {
        blocks.set(n, await getBlockData(n));
      }),
    );
    for (const item of logs) {
      const block = blocks.get(item.blockNumber as bigint)!;
      if (item.blockHash?.toLowerCase() !== block.hash) throw new ChainMovedError();
    }
    const sorted = [...blocks.values()].sort((a, b) => (a.number < b.number ? -1 : 1));
    const firstData = blocks.get(from);
    if (firstData !== undefined && firstData.hash !== first.hash) throw new ChainMovedError();
    const lastData = blocks.get(to);
    if (lastData !== undefined && lastData.hash !== last.hash) throw new ChainMovedError();
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      if (cur.number === prev.number + 1n && cur.parentHash !== prev.hash) throw new ChainMovedError();
    }

    const decoded = parseEventLogs({ abi: pairEventsAbi, logs: logs as Log[], strict: false });
    const newPairs = await classifyPairs(decoded.map((item) => item.address.toLowerCase() as Address));

    const index = views.getPoolIndex(network);
    const reserves = new Map<string, PairReserves>();
    const trades: Trade[] = [];
    let group: SwapEvent[] = [];

    const flush = (): void => {
      const head = group[0];
      if (head === undefined) return;
      const block = blocks.get(head.blockNumber)!;
      const tx = block.txs.get(head.txHash);
      group.sort((a, b) => a.logIndex - b.logIndex);
      if (tx === undefined) throw new ChainMovedError();
      const base = buildTrade({ network, swaps: group, tx, wrappedNative: wrapped, routers });
      const value = valueTradeUsd({
        index,
        params: pricing,
        tokenIn: base.tokenIn === NATIVE ? wrapped : base.tokenIn,
        amountIn: base.amountIn,
        tokenOut: base.tokenOut === NATIVE ? wrapped : base.tokenOut,
        amountOut: base.amountOut,
      });
      trades.push({ ...base, volumeUsd: value.volumeUsd, tracked: value.tracked });
      group = [];
    };

    for (const item of decoded) {
      const address = item.address.toLowerCase() as Address;
      const pair = pairs.get(address);
      if (pair === undefined || item.blockNumber === null || item.logIndex === null) continue;
      const blockNumber = item.blockNumber;
      const txHash = (item.transactionHash ?? "0x").toLowerCase() as Hash;
      if (group.length > 0 && group[0]!.txHash !== txHash) flush();
      if (item.eventName === "Sync") {
        const args = item.args as { reserve0?: bigint; reserve1?: bigint };
        if (args.reserve0 === undefined || args.reserve1 === undefined) continue;
        index.update({ ...pair, reserve0: args.reserve0, reserve1: args.reserve1 });
        reserves.set(`${address}:${blockNumber}`, {
          pair: address,
          blockNumber,
          logIndex: item.logIndex,
          reserve0: args.reserve0,
          reserve1: args.reserve1,
        });
      } else if (item.eventName === "Swap") {
        const args = item.args as {
          amount0In?: bigint;
          amount1In?: bigint;
          amount0Out?: bigint;
          amount1Out?: bigint;
          to?: Address;
        };
        if (args.amount0In === undefined || args.to === undefined) continue;
        group.push({
          txHash,
          blockNumber,
          logIndex: item.logIndex,
          pair,
          amount0In: args.amount0In,
          amount1In: args.amount1In ?? 0n,
          amount0Out: args.amount0Out ?? 0n,
          amount1Out: args.amount1Out ?? 0n,
          to: args.to.toLowerCase() as Address,
        });
      }
    }
    flush();

    const keep = sorted.filter((block) => block.number > unfinalizedFrom - 1n || block.number === to);
    const blockRefs: BlockRef[] = keep.map(({ number, hash, parentHash, timestamp }) => ({
      number,
      hash,
      parentHash,
      timestamp,
    }));
    if (!blockRefs.some((b) => b.number === to)) blockRefs.push(last);
    const next = { blockNumber: to, blockHash: last.hash };
    await store.commitRange(network, {
      checkpoint: next,
      blocks: blockRefs,
      pairs: newPairs,
      reserves: [...reserves.values()],
      trades,
    });
    checkpoint = next;
    const windowFrom = windowStart();
    views.appendTrades(
      network,
      trades.filter((trade) => trade.timestamp >= windowFrom),
      to,
    );
    return trades.length;
  }

  async function prune(head: bigint): Promise<void> {
    const before = windowStart();
    const blocksBelow = head - BigInt(config.finalityDepth) * 2n;
    await store.prune(network, { tradesBefore: before, blocksBelow: blocksBelow > 0n ? blocksBelow : 0n });
    views.prune(network, before);
  }

  async function loop(): Promise<void> {
    await loadFromStore();
    let failures = 0;
    let lastPrune = 0;
    let backfillFrom: bigint | undefined;
    let backfillTrades = 0;
    const startedAt = performance.now();
    while (!stopping) {
      try {
        if (checkpoint === undefined) checkpoint = await initialize();
        backfillFrom ??= checkpoint.blockNumber;
        const head = await client.getBlockNumber({ cacheTime: 0 });
        views.setStatus(network, { headBlock: head, indexedBlock: checkpoint.blockNumber });
        if (checkpoint.blockNumber >= head) {
          // Caught up: the chain may have been replaced under us without growing past our tip.
          const tip = head === checkpoint.blockNumber ? await getBlockRef(head) : undefined;
          if (head < checkpoint.blockNumber || (tip !== undefined && tip.hash !== checkpoint.blockHash)) {
            await exclusive(() => handleReorg(head));
            continue;
          }
          if (!views.status(network).ready) {
            log.info({ network, block: head }, "backfill done: following the head");
          }
          views.setStatus(network, { ready: true, error: undefined });
          if (now() - lastPrune > 600) {
            await prune(head);
            lastPrune = now();
          }
          await sleeper.sleep(config.pollIntervalMs);
          continue;
        }
        const from = checkpoint.blockNumber + 1n;
        const span = BigInt(fetcher.range);
        const to = from + span - 1n < head ? from + span - 1n : head;
        const count = await exclusive(() => indexRange(from, to, head));
        failures = 0;
        views.setStatus(network, { indexedBlock: checkpoint.blockNumber, error: undefined });
        if (count >= 0 && !views.status(network).ready) {
          backfillTrades += count;
          deps.onProgress?.({
            network,
            fromBlock: backfillFrom,
            indexedBlock: to,
            headBlock: head,
            trades: backfillTrades,
            elapsedMs: performance.now() - startedAt,
            done: to >= head,
          });
        }
      } catch (error) {
        if (error instanceof DeepReorgError) {
          log.error({ network, err: error.message }, "indexer halted");
          views.setStatus(network, { ready: false, error: error.message });
          throw error;
        }
        if (error instanceof LostWriterLockError) {
          log.warn({ network }, "lost the writer lock: another indexer writes this network now");
          throw error;
        }
        failures++;
        const message = error instanceof SwapgraphError ? error.message : String(error);
        if (!(error instanceof ChainMovedError)) {
          log.warn(
            {
              network,
              failures,
              err: message,
              ...(error instanceof SwapgraphError && error.details !== undefined
                ? { details: error.details }
                : {}),
            },
            "indexing failed; retrying",
          );
          if (failures >= 3) views.setStatus(network, { error: `RPC unavailable: ${message}` });
        }
        // The live pool graph may hold reserves of the range that did not commit.
        await reload().catch(() => undefined);
        if (!stopping) await sleeper.sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      }
    }
  }

  return {
    run() {
      running ??= loop();
      return running;
    },
    async stop() {
      stopping = true;
      sleeper.wake();
      await running?.catch(() => undefined);
    },
    async resolveToken(address) {
      const [token] = await ensureTokens([address]);
      const known = token ?? tokens.get(address)!;
      // Its pools with the base tokens are discovered once, then followed like the rest.
      const candidates = await Promise.all(
        config.dexes.flatMap((dex) =>
          config.baseTokens
            .filter((base) => base !== address)
            .map((base) => getPairAddress(client, dex.factory, address, base)),
        ),
      );
      const found = await classifyPairs(candidates.filter((a: Address) => !/^0x0{40}$/.test(a)));
      if (found.length > 0) {
        await exclusive(async () => {
          const at = checkpoint?.blockNumber;
          const reserves = await Promise.all(
            found.map(async (pair) => {
              const r = await readReserves(client, pair.address, at);
              return { pair: pair.address, blockNumber: at ?? 0n, logIndex: -1, ...r };
            }),
          );
          const index = views.getPoolIndex(network);
          for (const [i, pair] of found.entries()) {
            index.update({ ...pair, reserve0: reserves[i]!.reserve0, reserve1: reserves[i]!.reserve1 });
          }
          if (checkpoint !== undefined) {
            await store.commitRange(network, { checkpoint, blocks: [], pairs: found, reserves, trades: [] });
          }
        });
      }
      return known;
    },
  };
}

/** The chain changed under a range being read (a reorg in progress): the range is read again. */
class ChainMovedError extends Error {
  override name = "ChainMovedError";
  constructor() {
    super("the chain changed while a range was read");
  }
}
