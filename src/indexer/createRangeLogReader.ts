import { type Hex, type Log, toEventSelector } from "viem";
import { pairCreatedEventAbi } from "../chain/abis.js";
import type { LogFetcher, LogFilter } from "../chain/createLogFetcher.js";
import type { RpcClient } from "../chain/createRpcClient.js";
import type { RpcTimeSample } from "../chain/createRpcTimings.js";
import { listFactoryPools } from "../chain/listFactoryPools.js";
import type { Address, RpcCostModel } from "../domain/types.js";
import { bloomBits, bloomHasBits, type RangeEventSet, V2_EVENT_SET } from "./rangeEvents.js";

/** How a range's logs are asked for: every contract's by topic, or the factories' pools' by address. */
type LogMode = "topics" | "addresses";

/** What the choice between the modes weighs. Pure input of chooseLogMode. */
interface LogModeInput {
  model: RpcCostModel;
  /** eth_getLogs calls one range needs by address (the address list in chunks). */
  addressCalls: number;
  /** Share of the logs read by topic that came from contracts swapgraph does not follow (0..1). */
  foreignShare: number;
  /** Whether ranges are as long as the configuration allows (their length no longer follows density). */
  spanCapped: boolean;
  /** Logs the range brought by topic (the "time" model weighs their bytes). */
  topicLogs?: number;
  /** The "time" model's measurements of the client (before any, it chooses as "bytes" does). */
  time?: RpcTimeSample | undefined;
}

// Bytes of one Swap or Sync log in an eth_getLogs answer (about 480 on anvil and BSC-like chains).
const LOG_BYTES = 500;

/**
 * Which mode a range should use. Ranges hold about a fixed number of logs, so by address a
 * range covers 1 / (1 - foreignShare) times the blocks: over the same blocks it costs
 * addressCalls x (1 - foreignShare) calls for each call by topic (addressCalls when ranges are
 * capped by length instead). By calls and compute units (eth_getLogs is priced per call)
 * addresses win at a ratio of at most 1 (at 1 they cost the same and never bring more bytes);
 * by bytes they win whenever they leave foreign logs out. By time, each call costs the measured
 * round trip and each byte the measured throughput: addresses win when the foreign logs they
 * leave out take longer than their extra round trips. Pure.
 * @internal exported for tests, which call this step alone.
 */
export function chooseLogMode(input: LogModeInput): LogMode {
  const ratio = input.addressCalls * (input.spanCapped ? 1 : 1 - input.foreignShare);
  switch (input.model) {
    case "calls":
    case "computeUnits":
      return ratio <= 1 ? "addresses" : "topics";
    case "bytes":
      return input.addressCalls === 1 || input.foreignShare > 0 ? "addresses" : "topics";
    case "time": {
      const time = input.time;
      if (time === undefined) return chooseLogMode({ ...input, model: "bytes" });
      const bytes = (input.topicLogs ?? 0) * LOG_BYTES;
      const topics = time.latencyMs + bytes * time.msPerByte;
      const addresses = ratio * time.latencyMs + bytes * (1 - input.foreignShare) * time.msPerByte;
      return addresses <= topics ? "addresses" : "topics";
    }
    default: {
      const unreachable: never = input.model;
      return unreachable;
    }
  }
}

/** Every log of `filter` over [from, to], through the fetcher's learned chunks. */
async function collect(fetcher: LogFetcher, from: bigint, to: bigint, filter: LogFilter): Promise<Log[]> {
  const logs: Log[] = [];
  for await (const chunk of fetcher.chunks(from, to, filter)) logs.push(...chunk.logs);
  return logs;
}

/** Every log of `topics` emitted by `addresses` over [from, to], ADDRESSES_PER_CALL addresses a call. */
async function collectByAddress(
  fetcher: LogFetcher,
  [from, to]: [bigint, bigint],
  addresses: readonly Address[],
  topics: readonly Hex[],
): Promise<Log[]> {
  const logs: Log[] = [];
  for (let i = 0; i < addresses.length; i += ADDRESSES_PER_CALL) {
    const address = addresses.slice(i, i + ADDRESSES_PER_CALL);
    logs.push(...(await collect(fetcher, from, to, { address, topics: [[...topics]] })));
  }
  return logs;
}

/** Options of createRangeLogReader. */
export interface RangeLogReaderOptions {
  network: string;
  client: RpcClient;
  /** The eth_getLogs reader whose learned range both modes share; its own filter is the topics mode's. */
  fetcher: LogFetcher;
  /** Configured Uniswap-V2-style factories: their pools, and their PairCreated logs. */
  factories: readonly Address[];
  /** The events a range reads (default: V2 pairs' and the wrapped coin's). */
  events?: RangeEventSet;
  /** The wrapped native coin (its Deposit and Withdrawal logs are read in both modes). */
  wrapped: Address;
  model: RpcCostModel;
  /** The "time" model's measurements of the client, as of now (absent: none yet). */
  timings?: () => RpcTimeSample | undefined;
  /** Longest range the indexer asks for (config maxLogRange). */
  maxRange: number;
  /** Pools beyond which no address list is kept and logs are read by topic (default 4,000). */
  maxPools?: number;
  /**
   * Called when a range's PairCreated logs added pools to the list: reads of other ranges begun
   * before asked without them and must be read again (the indexer's pool epoch).
   */
  onPoolsAdded?: () => void;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** Reads a range's pool and wrapped-coin logs by topic or by address, whichever costs less. */
export interface RangeLogReader {
  readonly mode: LogMode;
  /** Lists the factories' pools (once; at most a few eth_calls) and picks the first mode. */
  prepare(): Promise<void>;
  /**
   * Swap, Sync, Deposit and Withdrawal logs of [from, to] in the current mode (by address: of
   * the factories' pools, including pools their PairCreated logs announce within the range),
   * then, by topic, learns what share was foreign and may switch mode for the next ranges.
   */
  read(from: bigint, to: bigint): Promise<Log[]>;
  /** Whether a block's logs bloom says it may hold logs `read` returns in the current mode. */
  bloomNamesLogs(bloom: string | undefined): boolean;
}

// Addresses per eth_getLogs: providers accept long lists, but answers and request bodies grow.
const ADDRESSES_PER_CALL = 1_000;
const DEFAULT_MAX_POOLS = 4_000;
const PAIR_CREATED = toEventSelector(pairCreatedEventAbi);

const lower = (value: string) => value.toLowerCase() as Address;

/** New pools a configured factory created in `logs`, with the first block each one can log in. */
function createdPools(
  logs: readonly Log[],
  factories: ReadonlySet<Address>,
  known: ReadonlySet<Address>,
): Map<Address, bigint> {
  const found = new Map<Address, bigint>();
  for (const item of logs) {
    if (item.topics[0]?.toLowerCase() !== PAIR_CREATED || !factories.has(lower(item.address))) continue;
    if (item.data.length < 66 || item.blockNumber === null) continue;
    const pool = lower(`0x${item.data.slice(26, 66)}`);
    if (!known.has(pool) && !found.has(pool)) found.set(pool, item.blockNumber);
  }
  return found;
}

/** Whether a logs bloom names any of `addresses` (their bloom bits computed once into `bitsOf`). */
function bloomNamesAny(
  bloom: string | undefined,
  addresses: Iterable<Address>,
  bitsOf: Map<Address, readonly number[]>,
): boolean {
  for (const address of addresses) {
    let bits = bitsOf.get(address);
    if (bits === undefined) {
      bits = bloomBits(address);
      bitsOf.set(address, bits);
    }
    if (bloomHasBits(bloom, bits)) return true;
  }
  return false;
}

/**
 * Creates the range log reader. On a chain where other DEXes' pools log as much as the
 * configured ones (BSC's many V2 forks), asking by the pools' addresses leaves their logs out;
 * on a chain where the factories hold more pools than an address list can carry
 * (PancakeSwap V2: over a million), logs are asked by topic and filtered by the factory check.
 */
export function createRangeLogReader(options: RangeLogReaderOptions): RangeLogReader {
  const maxPools = options.maxPools ?? DEFAULT_MAX_POOLS;
  const events = options.events ?? V2_EVENT_SET;
  const ADDRESS_TOPICS: readonly Hex[] = [...events.topics, PAIR_CREATED];
  const factories = new Set(options.factories.map(lower));
  const wrapped = lower(options.wrapped);
  let pools: Set<Address> | undefined;
  // The bloom bits of each listed pool, computed once.
  const poolBits = new Map<Address, readonly number[]>();
  let mode: LogMode = "topics";
  let prepared = false;

  const addressCalls = () => Math.ceil((pools!.size + factories.size + 1) / ADDRESSES_PER_CALL);
  const setMode = (next: LogMode, why: object) => {
    if (next === mode) return;
    mode = next;
    options.log.info({ network: options.network, mode, ...why }, `eth_getLogs by ${mode}`);
  };

  async function readByAddress(from: bigint, to: bigint): Promise<Log[]> {
    const logs = await collectByAddress(
      options.fetcher,
      [from, to],
      [...pools!, wrapped, ...factories],
      ADDRESS_TOPICS,
    );
    const fresh = createdPools(logs, factories, pools!);
    if (fresh.size > 0) {
      for (const pool of fresh.keys()) pools!.add(pool);
      options.onPoolsAdded?.();
      // Their first logs are in this range, after their creation: asked for once more.
      const since = [...fresh.values()].reduce((a, b) => (a < b ? a : b));
      logs.push(
        ...(await collectByAddress(options.fetcher, [since, to], [...fresh.keys()], events.poolTopics)),
      );
      if (pools!.size > maxPools) {
        pools = undefined;
        setMode("topics", { reason: `the factories hold more than ${maxPools} pools` });
      }
    }
    return logs.filter((item) => item.topics[0]?.toLowerCase() !== PAIR_CREATED);
  }

  async function readByTopic(from: bigint, to: bigint): Promise<Log[]> {
    // With a pool list, PairCreated logs keep it whole (a few a day on a busy chain).
    const logs = await collect(options.fetcher, from, to, {
      topics: [pools === undefined ? events.topics : ADDRESS_TOPICS],
    });
    if (pools === undefined) return logs;
    // Pools created meanwhile join the list, so that a later switch misses none of their logs.
    for (const pool of createdPools(logs, factories, pools).keys()) pools.add(pool);
    if (pools.size > maxPools) {
      pools = undefined;
      return logs.filter((item) => item.topics[0]?.toLowerCase() !== PAIR_CREATED);
    }
    const own = logs.filter((item) => pools!.has(lower(item.address)) || lower(item.address) === wrapped);
    const pairLogs = logs.filter((item) => item.topics[0]?.toLowerCase() !== PAIR_CREATED);
    if (pairLogs.length > 0) {
      const foreignShare = 1 - own.length / pairLogs.length;
      const spanCapped = Number(to - from + 1n) >= options.maxRange;
      setMode(
        chooseLogMode({
          model: options.model,
          addressCalls: addressCalls(),
          foreignShare,
          spanCapped,
          topicLogs: logs.length,
          time: options.timings?.(),
        }),
        {
          foreignShare: Number(foreignShare.toFixed(3)),
          addressCalls: addressCalls(),
        },
      );
    }
    return pairLogs;
  }

  return {
    get mode() {
      return mode;
    },
    async prepare() {
      if (prepared) return;
      if (maxPools === 0) {
        prepared = true;
        return;
      }
      let listed: Address[] | undefined;
      try {
        listed = await listFactoryPools(options.client, [...factories], maxPools);
      } catch (error) {
        // Reading by topic needs no list: the provider's trouble only costs the saving.
        options.log.warn(
          { network: options.network, error: error instanceof Error ? error.message : String(error) },
          "the factories' pools could not be listed; eth_getLogs by topics",
        );
        return;
      }
      prepared = true;
      if (listed === undefined) return;
      pools = new Set(listed);
      // One call by address costs what one by topic does and never brings more: start there.
      if (addressCalls() === 1) setMode("addresses", { pools: pools.size });
    },
    read: (from, to) => (mode === "addresses" ? readByAddress(from, to) : readByTopic(from, to)),
    bloomNamesLogs(bloom) {
      if (!events.bloomNamesPoolLogs(bloom)) return false;
      // By address, another DEX's swaps in a block are no sign that logs are missing.
      return mode === "topics" || pools === undefined || bloomNamesAny(bloom, pools, poolBits);
    },
  };
}
