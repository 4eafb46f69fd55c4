import { zeroAddress } from "viem";
import { buildPairAddressRead } from "../chain/buildPairAddressRead.js";
import { buildPairCheckRead, type PairCheck } from "../chain/buildPairCheckRead.js";
import { buildTokenMetadataRead } from "../chain/buildTokenMetadataRead.js";
import { createLogFetcher } from "../chain/createLogFetcher.js";
import type { RpcClient } from "../chain/createRpcClient.js";
import { findBlockByTimestamp } from "../chain/findBlockByTimestamp.js";
import { readManyReserves } from "../chain/readManyReserves.js";
import { readPairInfo } from "../chain/readPairInfo.js";
import { readPairInfos } from "../chain/readPairInfos.js";
import { type Reserves, readReserves } from "../chain/readReserves.js";
import type { SenderReadCosts } from "../chain/readsWholeBlock.js";
import { readTokenMetadatas } from "../chain/readTokenMetadatas.js";
import { type BatchedRead, runBatchedReads } from "../chain/runBatchedReads.js";
import { summarizeFailure } from "../chain/summarizeFailure.js";
import type { NetworkConfig } from "../config/types.js";
import { countEvent } from "../domain/countEvent.js";
import type { Address, BlockRef, Checkpoint, Pair, PairReserves, Token } from "../domain/types.js";
import {
  DeepReorgError,
  InvalidTokenMetadataError,
  LostWriterLockError,
  NotErc20Error,
  RpcError,
  SwapgraphError,
} from "../errors.js";
import { createPoolOverlay } from "../pricing/createPoolOverlay.js";
import { createPricingParams } from "../pricing/createPricingParams.js";
import type { PoolState } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import { type LiveViews, listTokens } from "./createLiveViews.js";
import { createSleeper } from "./createSleeper.js";
import { createTokenLookup, type TokenLookupOptions } from "./createTokenLookup.js";
import { decodeRange } from "./decodeRange.js";
import { RANGE_EVENT_TOPICS, type RangeRead, readHeader, readRange, truncateRange } from "./readRange.js";
import { validateRange } from "./validateRange.js";

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
  /**
   * Reads an unknown token's metadata and discovers its pools with the base tokens: pools found
   * are followed, and only then are the token and its pools stored. Lookups are bounded and
   * remembered (createTokenLookup).
   */
  resolveToken(address: Address): Promise<Token>;
}

/** What applying one read range came to; the loop switches on it exhaustively. */
export type RangeOutcome =
  /** Committed: the checkpoint moved to `to`. */
  | { type: "range"; to: bigint; trades: number }
  /** The range does not link to the checkpoint: the stored chain was replaced. */
  | { type: "reorg" }
  /** The chain changed while the range was read, or pools were added meanwhile: read it again. */
  | { type: "retry"; reason: string };

/** Aim of one range read: bounds the memory of a range on dense chains (BSC: ~2,000 logs a block). */
const TARGET_LOGS_PER_RANGE = 5_000;
const INITIAL_SPAN = 4;
// Ranges read ahead of the one being applied: the node works on them while this process decodes
// and commits (at most this many ranges of TARGET_LOGS_PER_RANGE logs in memory besides it).
const READS_IN_FLIGHT = 3;

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
  /**
   * Reads for addresses callers name (token lookups): a client of its own, so what hostile
   * contracts or a flood of lookups cause never marks the indexing client's URLs unhealthy
   * (default: `client`).
   */
  discoveryClient?: RpcClient;
  /** Limits of caller-named token lookups (createTokenLookup's defaults). */
  tokenLookup?: TokenLookupOptions;
  store: Store;
  views: LiveViews;
  log: IndexerLogger;
  /** Unix seconds; injectable so tests can pin "now". */
  now?: () => number;
  onProgress?: (progress: IndexerProgress) => void;
}): NetworkIndexer {
  const { config, client, store, views, log } = deps;
  const discoveryClient = deps.discoveryClient ?? client;
  const network = config.name;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const wrapped = config.native.wrapped;
  const routers = new Set(config.dexes.flatMap((dex) => (dex.router === undefined ? [] : [dex.router])));
  const factories = config.dexes.map((dex) => ({ name: dex.name, factory: dex.factory, feeBps: dex.feeBps }));

  /** Accepted pairs (committed or about to be); the store's pairs table holds `committedPairs`. */
  const pairs = new Map<Address, Pair>();
  const committedPairs = new Set<Address>();
  const rejected = new Set<Address>();
  const tokens = new Map<Address, Token>();
  // Grows whenever pairs are accepted outside the range reads (token discovery): a range read
  // before that may have dropped their logs, so it is read again.
  let pairsEpoch = 0;
  let checkpoint: Checkpoint | undefined;
  let stopping = false;
  const sleeper = createSleeper();
  let running: Promise<void> | undefined;
  // The range the provider accepts is learned once and carries over from range to range. One
  // call per chunk brings the pools' and the wrapped coin's events (a topic OR-list).
  const logs = createLogFetcher({ client, topics: [RANGE_EVENT_TOPICS], maxRange: config.maxLogRange, log });
  // Signers are read by whole block or by transaction, by the configured cost model; what a
  // block of this chain weighs is learned from the blocks read (BSC: 150-250 transactions).
  const senderCosts: SenderReadCosts = {
    model: config.rpc.costModel,
    ...(config.rpc.computeUnits === undefined ? {} : { computeUnits: config.rpc.computeUnits }),
    transactionsPerBlock: 200,
  };
  // Blocks per range: starts small (a BSC block has ~2,000 Swap/Sync logs) and at most doubles
  // per range, towards about TARGET_LOGS_PER_RANGE logs, so no range holds more than a few MB.
  let span = Math.min(config.maxLogRange, INITIAL_SPAN);
  // Store writes of the loop and of token discovery (an API request) never interleave.
  let writes: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = writes.then(fn);
    writes = result.catch(() => undefined);
    return result;
  }

  const pricing = createPricingParams(config, (token) => tokens.get(token)?.decimals);

  async function loadFromStore(): Promise<void> {
    for (const token of listTokens(config)) tokens.set(token.address as Address, token);
    for (const token of await store.listTokens(network)) tokens.set(token.address as Address, token);
    for (const pair of await store.listPairs(network)) {
      pairs.set(pair.address, pair);
      committedPairs.add(pair.address);
    }
    for (const address of await store.listRejectedPairs(network)) rejected.add(address);
    const reserves = await store.listReserves(network);
    checkpoint = await store.getCheckpoint(network);
    views.load(network, {
      tokens: [...tokens.values()],
      pools: poolsFrom(reserves),
      ...(checkpoint === undefined ? {} : { checkpoint }),
    });
    // A restart serves what the store holds at once: its freshness is the writer's last record.
    const head = await store.getHead(network);
    views.setStatus(network, {
      indexedBlock: checkpoint?.blockNumber,
      ...(head === undefined
        ? {}
        : {
            headBlock: head.headBlock,
            headCheckedAt: head.checkedAt,
            syncedAt: head.syncedAt,
            ready: head.syncedAt !== undefined,
          }),
    });
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

  /**
   * Reads (all in one eth_call) and stores the tokens not known yet; `prefetched` ones (read by a
   * lookup) are stored as they are. Returns the tokens refused for good (not an ERC-20, unusable
   * metadata) with their error; RPC trouble is thrown.
   */
  async function ensureTokens(
    addresses: Iterable<Address>,
    prefetched: readonly Token[] = [],
  ): Promise<Map<Address, Error>> {
    const missing = [...new Set(addresses)].filter((address) => !tokens.has(address));
    const known = missing.flatMap((address) => prefetched.filter((token) => token.address === address));
    const unread = missing.filter((address) => !known.some((token) => token.address === address));
    const fetched = await readTokenMetadatas(client, unread, { network });
    const refused = new Map<Address, Error>();
    const read = [...known];
    for (const [i, outcome] of fetched.entries()) {
      if (!(outcome instanceof Error)) read.push(outcome);
      else if (outcome instanceof NotErc20Error || outcome instanceof InvalidTokenMetadataError)
        refused.set(unread[i]!, outcome);
      else throw outcome;
    }
    for (const token of read) tokens.set(token.address as Address, token);
    if (read.length > 0) {
      await store.upsertTokens(network, read);
      views.addTokens(network, read);
    }
    return refused;
  }

  /** Checks unknown pool addresses against the configured factories; returns the newly accepted ones. */
  async function classifyPairs(addresses: Iterable<Address>): Promise<Pair[]> {
    const unknown = [...new Set(addresses)].filter(
      (address) => !pairs.has(address) && !rejected.has(address),
    );
    if (unknown.length === 0) return [];
    // Two eth_calls for all of them: the pools' getters, then the claimed factories' getPair.
    const infos = await readPairInfos(client, unknown, factories);
    return admitPairs(unknown.map((address, i) => ({ address, info: infos[i] })));
  }

  /**
   * Accepts checked pools (`info` undefined: not a pair of a configured factory) whose tokens are
   * readable ERC-20s and refuses the rest for good; returns the accepted ones. A token lookup
   * passes the token it already read.
   */
  async function admitPairs(
    checked: readonly { address: Address; info: Pair | undefined }[],
    prefetched?: Token,
  ): Promise<Pair[]> {
    const accepted: Pair[] = [];
    const refused: Address[] = [];
    for (const { address, info } of checked) {
      if (info === undefined) refused.push(address);
      else accepted.push(info);
    }
    // A pair whose token is not a readable ERC-20 cannot be priced or shown: refuse it too. Only
    // a definite "not an ERC-20" (or unusable metadata) refuses for good; RPC trouble (thrown)
    // retries the range. One metadata read for all the pairs' new tokens.
    const refusedTokens = await ensureTokens(
      accepted.flatMap((pair) => [pair.token0, pair.token1]),
      prefetched === undefined ? [] : [prefetched],
    );
    const usable: Pair[] = [];
    for (const pair of accepted) {
      const error = refusedTokens.get(pair.token0) ?? refusedTokens.get(pair.token1);
      if (error === undefined) {
        usable.push(pair);
        continue;
      }
      log.warn({ network, pair: pair.address, err: error.message }, "pair refused: token is not an ERC-20");
      refused.push(pair.address);
    }
    for (const pair of usable) pairs.set(pair.address, pair);
    for (const address of refused) rejected.add(address);
    if (refused.length > 0) await store.addRejectedPairs(network, refused);
    return usable;
  }

  /**
   * Checks a looked-up token's candidate pools and reads their reserves at `at` (latest when
   * undefined) in one eth_call; a pool that read cannot settle (younger than `at`, or claiming
   * other tokens or another factory) is checked the long way, readPairInfo at latest.
   */
  async function checkCandidates(
    token: Address,
    candidates: readonly Candidate[],
    at: bigint | undefined,
  ): Promise<{ address: Address; info: Pair | undefined; reserves: Reserves }[]> {
    const reads = candidates.map((candidate) =>
      buildPairCheckRead(
        candidate.address,
        { factory: candidate.factory, tokenA: token, tokenB: candidate.base },
        factories,
      ),
    );
    let checks: PairCheck[];
    let atLatest = at === undefined;
    try {
      checks = await runBatchedReads(discoveryClient, reads, at === undefined ? {} : { blockNumber: at });
    } catch (error) {
      // As readReserves: a node without that block's state reads the latest (Sync logs correct it).
      if (at === undefined || !(error instanceof RpcError)) throw error;
      checks = await runBatchedReads(discoveryClient, reads);
      atLatest = true;
    }
    return Promise.all(
      candidates.map(async ({ address }, i) => {
        const check = checks[i]!;
        switch (check.kind) {
          case "pair": {
            if (check.reserves !== undefined) return { address, info: check.pair, reserves: check.reserves };
            // At a block, a pool without reserves did not exist yet (0/0); at latest it is no V2 pair.
            if (atLatest) {
              throw new RpcError(
                `getReserves() of ${address} returned nothing: it is not a Uniswap-V2-style pair.`,
              );
            }
            return { address, info: check.pair, reserves: { reserve0: 0n, reserve1: 0n } };
          }
          case "refused":
            return { address, info: undefined, reserves: { reserve0: 0n, reserve1: 0n } };
          case "unknown": {
            const info = await readPairInfo(discoveryClient, address, factories);
            const reserves =
              info === undefined
                ? { reserve0: 0n, reserve1: 0n }
                : await readReserves(discoveryClient, address, at);
            return { address, info, reserves };
          }
          default:
            return assertNever(check);
        }
      }),
    );
  }

  /**
   * A caller-named token: its metadata (gas-capped, cleaned, bounded) and its pools with the base
   * tokens, in one eth_call; when it has pools not known yet, a second one checks them and reads
   * their reserves at the checkpoint. Found pools are followed from now on, and only then are the
   * token and they stored; a token without such a pool is only remembered by the lookup cache.
   */
  async function discoverToken(address: Address): Promise<Token> {
    const probes = config.dexes.flatMap((dex) =>
      config.baseTokens.filter((base) => base !== address).map((base) => ({ factory: dex.factory, base })),
    );
    const [token, ...found] = await runBatchedReads(discoveryClient, [
      buildTokenMetadataRead(address, network),
      ...probes.map((probe) => buildPairAddressRead(probe.factory, address, probe.base)),
    ]);
    const candidates = new Map<Address, Candidate>();
    for (const [i, pair] of found.entries()) {
      if (pair !== zeroAddress && !candidates.has(pair))
        candidates.set(pair, { address: pair, ...probes[i]! });
    }
    const isNew = (candidate: Candidate) => !pairs.has(candidate.address) && !rejected.has(candidate.address);
    if (![...candidates.values()].some(isNew)) return token;
    await exclusive(async () => {
      // Inside the store's write turn: the range loop may have met these pools meanwhile, and the
      // reserves must be those of the checkpoint they are committed with.
      const fresh = [...candidates.values()].filter(isNew);
      if (fresh.length === 0) return;
      const at = checkpoint?.blockNumber;
      const checked = await checkCandidates(address, fresh, at);
      const usable = await admitPairs(checked, token);
      if (usable.length === 0) return;
      // Ranges read before lack these pools' logs: they are read again.
      pairsEpoch++;
      const reserveOf = new Map(checked.map((c) => [c.address, c.reserves]));
      const reserves = usable.map((pair) => ({
        pair: pair.address,
        blockNumber: at ?? 0n,
        logIndex: -1,
        ...reserveOf.get(pair.address)!,
      }));
      if (checkpoint !== undefined) {
        await store.commitRange(network, { checkpoint, blocks: [], pairs: usable, reserves, trades: [] });
        for (const pair of usable) committedPairs.add(pair.address);
      }
      const index = views.getPoolIndex(network);
      for (const [i, pair] of usable.entries()) {
        index.update({ ...pair, reserve0: reserves[i]!.reserve0, reserve1: reserves[i]!.reserve1 });
      }
    });
    return tokens.get(address) ?? token;
  }

  // Caller-named addresses: bounded, remembered, one read per address, a few at a time.
  const tokenLookups = createTokenLookup(network, discoverToken, deps.tokenLookup);

  async function acceptPairs(addresses: ReadonlySet<Address>): Promise<ReadonlySet<Address>> {
    await classifyPairs(addresses);
    return new Set([...addresses].filter((address) => pairs.has(address)));
  }

  /** First indexing of this network: find the start block and seed the pools of the token list. */
  async function initialize(): Promise<Checkpoint> {
    const start = config.startBlock ?? (await findBlockByTimestamp(client, windowStart()));
    const before = start > 0n ? start - 1n : 0n;
    const ref = await readHeader(client, before);
    // Pools that hold listed tokens but do not trade early in the window still price and route.
    const listed = [
      ...new Set([...listTokens(config).map((t) => t.address as Address), ...config.baseTokens]),
    ];
    const seen = new Set<string>();
    const lookups: BatchedRead<Address>[] = [];
    for (const dex of config.dexes) {
      for (const base of config.baseTokens) {
        for (const token of listed) {
          const key = `${dex.factory}:${token < base ? `${token}:${base}` : `${base}:${token}`}`;
          if (token === base || seen.has(key)) continue;
          seen.add(key);
          lookups.push(buildPairAddressRead(dex.factory, token, base));
        }
      }
    }
    // Every factory x base x listed token in one eth_call, then the pools' checks and reserves.
    const candidates: readonly Address[] = await runBatchedReads<Address[]>(client, lookups);
    const found = await classifyPairs(candidates.filter((a: Address) => !/^0x0{40}$/.test(a)));
    const reserves = (
      await readManyReserves(
        client,
        found.map((pair) => pair.address),
        before,
      )
    ).map((r, i) => ({
      pair: found[i]!.address,
      blockNumber: before,
      logIndex: -1,
      reserve0: r.reserve0,
      reserve1: r.reserve1,
    }));
    const cp = { blockNumber: before, blockHash: ref.hash };
    await store.commitRange(network, { checkpoint: cp, blocks: [ref], pairs: found, reserves, trades: [] });
    for (const pair of found) committedPairs.add(pair.address);
    const index = views.getPoolIndex(network);
    for (const [i, pair] of found.entries()) {
      index.update({ ...pair, reserve0: reserves[i]!.reserve0, reserve1: reserves[i]!.reserve1 });
    }
    views.markIndexed(network, cp);
    log.info({ network, startBlock: start, seededPools: found.length }, "backfill starts");
    return cp;
  }

  /** Walks back the stored blocks to the newest one still canonical; halts on a reorg deeper than the window. */
  async function handleReorg(head: bigint): Promise<void> {
    countEvent("reorgs", { network });
    const stored = await store.listBlocks(network);
    for (let i = stored.length - 1; i >= 0; i--) {
      const block = stored[i]!;
      // Blocks above the new head are gone with the old branch.
      if (block.number > head) continue;
      const canonical = await readHeader(client, block.number);
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
    committedPairs.clear();
    rejected.clear();
    await loadFromStore();
  }

  /** Step 1: read a range (logs, then senders and the headers needed), sized to the chain's density. */
  function startRead(from: bigint, head: bigint): PendingRead {
    const to = from + BigInt(span) - 1n < head ? from + BigInt(span) - 1n : head;
    const epoch = pairsEpoch;
    const read = readRange(
      {
        client,
        logs,
        wrapped,
        senderCosts,
        acceptPairs,
        unfinalizedFrom: head - BigInt(config.finalityDepth),
      },
      from,
      to,
    );
    // A read that is dropped (reorg, stop) must not surface as an unhandled rejection.
    read.catch(() => undefined);
    return { read, epoch, to };
  }

  /** Steps 2-5 of one range: validate, decode (against an overlay), commit, apply to the views. */
  async function applyRange(read: RangeRead, epoch: number, head: bigint): Promise<RangeOutcome> {
    const cp = checkpoint!;
    if (epoch !== pairsEpoch) return { type: "retry", reason: "pools were added while the range was read" };
    const validity = validateRange(read, cp);
    switch (validity.kind) {
      case "reorg":
        return { type: "reorg" };
      case "moved":
        return { type: "retry", reason: validity.reason };
      case "ok":
        break;
      default:
        return assertNever(validity);
    }
    const live = views.getPoolIndex(network);
    const overlay = createPoolOverlay(live);
    const decoded = decodeRange(read, {
      network,
      pairs,
      pools: overlay,
      pricing,
      wrappedNative: wrapped,
      routers,
    });
    const newPairs = new Map<Address, Pair>();
    for (const event of read.events) {
      if ((event.kind === "swap" || event.kind === "sync") && !committedPairs.has(event.pair)) {
        newPairs.set(event.pair, pairs.get(event.pair)!);
      }
    }
    // Blocks within reach of a reorg keep their hash links; the last one anchors the checkpoint.
    const unfinalizedFrom = head - BigInt(config.finalityDepth);
    const last = read.headers.get(read.to)!;
    const blocks: BlockRef[] = [...read.headers.values()].filter(
      (block) => block.number >= unfinalizedFrom || block.number === read.to,
    );
    const next = { blockNumber: read.to, blockHash: last.hash };
    await store.commitRange(network, {
      checkpoint: next,
      blocks,
      pairs: [...newPairs.values()],
      reserves: decoded.reserves,
      trades: decoded.trades,
    });
    // Only now does the live graph the API reads change.
    checkpoint = next;
    for (const address of newPairs.keys()) committedPairs.add(address);
    for (const pool of overlay.changes()) live.update(pool);
    views.markIndexed(network, next);
    countEvent("trades_indexed", { network }, decoded.trades.length);
    return { type: "range", to: read.to, trades: decoded.trades.length };
  }

  // The next range's span from this one's density: about TARGET_LOGS_PER_RANGE logs, at most doubling.
  function resize(read: RangeRead): void {
    const seen = read.blocksRead;
    if (seen.blocks > 0) {
      // A running average that follows the chain's load within a few dozen blocks.
      const weight = Math.min(1, seen.blocks / 32);
      senderCosts.transactionsPerBlock =
        senderCosts.transactionsPerBlock * (1 - weight) + (seen.transactions / seen.blocks) * weight;
    }
    const blocks = Number(read.to - read.from + 1n);
    const fit = Math.floor((blocks * TARGET_LOGS_PER_RANGE) / Math.max(1, read.logCount));
    span = Math.max(1, Math.min(config.maxLogRange, fit, span * 2));
  }

  /** Asks the chain for its head; the answer's time is the network's freshness. */
  async function refreshHead(): Promise<bigint> {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const checkedAt = Date.now();
    const status = views.status(network);
    const synced = checkpoint !== undefined && checkpoint.blockNumber >= head;
    const syncedAt = synced ? checkedAt : status.syncedAt;
    views.setStatus(network, {
      headBlock: head,
      headCheckedAt: checkedAt,
      syncedAt,
      indexedBlock: checkpoint?.blockNumber,
      error: undefined,
    });
    await store.saveHead(network, { headBlock: head, checkedAt, syncedAt });
    return head;
  }

  /** Pipelined backfill up to `head`: the next range is read while the current one is applied. */
  async function catchUp(startHead: bigint, progress: ProgressState): Promise<void> {
    let head = startHead;
    // Reads in flight, in block order: while one range is applied the next ones are read.
    const queue: PendingRead[] = [];
    // The last block a read was started for. Not the queue's tail: the range being applied has
    // left the queue but not yet moved the checkpoint, and must not be read a second time (the
    // copy would not link to the new checkpoint and look like a reorg).
    let readTo = checkpoint!.blockNumber;
    const fill = (): void => {
      while (queue.length < READS_IN_FLIGHT) {
        if (readTo + 1n > head) return;
        const pending = startRead(readTo + 1n, head);
        queue.push(pending);
        readTo = pending.to;
      }
    };
    fill();
    while (queue.length > 0 && !stopping) {
      const { read, epoch } = queue.shift()!;
      const data: RangeRead = await read;
      resize(data);
      // Logs a block's bloom names that no read produced (a log index behind the head): commit
      // what comes before it and read on from there at the next poll. Near the head only: no
      // provider's index lags by the finality depth, so an older doubt is a bloom's false positive.
      const doubt = data.unconfirmed.find((number) => number > head - BigInt(config.finalityDepth));
      if (doubt !== undefined) {
        if (doubt > data.from && data.headers.has(doubt - 1n)) {
          await exclusive(() => applyRange(truncateRange(data, doubt - 1n), epoch, head));
        }
        log.info(
          { network, block: doubt, from: data.from, to: data.to },
          "logs of a block are not served yet (its bloom names Swap or Sync); reading it again",
        );
        return;
      }
      fill();
      const outcome = await exclusive(() => applyRange(data, epoch, head));
      switch (outcome.type) {
        case "range":
          progress.trades += outcome.trades;
          if (!views.status(network).ready) {
            deps.onProgress?.({
              network,
              fromBlock: progress.fromBlock ?? data.from,
              indexedBlock: outcome.to,
              headBlock: head,
              trades: progress.trades,
              elapsedMs: performance.now() - progress.startedAt,
              done: outcome.to >= head,
            });
          }
          // A long backfill still says the RPC is alive, and follows a head that moves on.
          if (Date.now() - (views.status(network).headCheckedAt ?? 0) > config.pollIntervalMs) {
            head = await refreshHead();
            fill();
          }
          break;
        case "reorg":
          await exclusive(() => handleReorg(head));
          return;
        case "retry":
          log.info(
            { network, from: data.from, to: data.to, reason: outcome.reason },
            "reading the range again",
          );
          return;
        default:
          assertNever(outcome);
      }
    }
  }

  async function atHead(head: bigint, lastPrune: { at: number }): Promise<void> {
    const cp = checkpoint!;
    // Caught up: the chain may have been replaced under us without growing past our tip.
    const tip = head === cp.blockNumber ? await readHeader(client, head) : undefined;
    if (head < cp.blockNumber || (tip !== undefined && tip.hash !== cp.blockHash)) {
      await exclusive(() => handleReorg(head));
      return;
    }
    if (!views.status(network).ready) log.info({ network, block: head }, "backfill done: following the head");
    views.setStatus(network, { ready: true, error: undefined });
    if (now() - lastPrune.at > 600) {
      const blocksBelow = head - BigInt(config.finalityDepth) * 2n;
      await store.prune(network, {
        tradesBefore: windowStart(),
        blocksBelow: blocksBelow > 0n ? blocksBelow : 0n,
      });
      lastPrune.at = now();
    }
    await sleeper.sleep(config.pollIntervalMs);
  }

  async function loop(): Promise<void> {
    await loadFromStore();
    let failures = 0;
    const lastPrune = { at: 0 };
    const progress: ProgressState = { fromBlock: undefined, trades: 0, startedAt: performance.now() };
    while (!stopping) {
      try {
        if (checkpoint === undefined) checkpoint = await initialize();
        progress.fromBlock ??= checkpoint.blockNumber;
        const head = await refreshHead();
        if (checkpoint.blockNumber >= head) await atHead(head, lastPrune);
        else await catchUp(head, progress);
        failures = 0;
      } catch (error) {
        if (error instanceof DeepReorgError) {
          log.error({ network, err: error.message }, "indexer halted");
          views.setStatus(network, { halted: true, error: error.message });
          throw error;
        }
        if (error instanceof LostWriterLockError) {
          log.warn({ network }, "lost the writer lock: another indexer writes this network now");
          throw error;
        }
        failures++;
        const message = error instanceof SwapgraphError ? error.message : String(error);
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
        // The API keeps serving what is indexed; the status says why it is not moving.
        // Public (GraphQL status): a few safe words, never the raw error (URL, request body).
        if (failures >= 3) views.setStatus(network, { error: summarizeFailure(error) });
        // The client already retried with backoff: the loop itself comes back within seconds of a recovery.
        if (!stopping) await sleeper.sleep(Math.min(5_000, 250 * 2 ** Math.min(failures, 7)));
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
      const lower = address.toLowerCase() as Address;
      return tokens.get(lower) ?? tokenLookups.get(lower);
    },
  };
}

/** A pool a token lookup found: the factory whose getPair(token, base) named it. */
interface Candidate {
  address: Address;
  factory: Address;
  base: Address;
}

/** A range read in flight, with the pool epoch it was started in. */
interface PendingRead {
  read: Promise<RangeRead>;
  epoch: number;
  /** Last block of the range (the next read starts after it). */
  to: bigint;
}

interface ProgressState {
  fromBlock: bigint | undefined;
  trades: number;
  startedAt: number;
}

function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
