import { formatLog, type Hex, type Log, numberToHex, type RpcLog } from "viem";
import type { RpcClient } from "../chain/createRpcClient.js";
import { readsWholeBlock, type SenderReadCosts } from "../chain/readsWholeBlock.js";
import type { Address, BlockRef, Hash, NetworkName, Pair } from "../domain/types.js";
import { BlockNotServedError, RpcError } from "../errors.js";
import { mapWithConcurrency } from "../lib/mapWithConcurrency.js";
import type { PoolIndex, PricingParams } from "../pricing/types.js";
import type { V3Snapshots } from "./createV3Tracker.js";
import {
  decodePoolLog,
  decodeWrappedLog,
  isWrappedTopic,
  type LogPosition,
  poolFamilyOf,
  type RangeEvent,
  type RangeEventSet,
  V2_EVENT_SET,
} from "./rangeEvents.js";

export type { RangeEvent } from "./rangeEvents.js";

/** The input of decodeRange besides the range itself. */
export interface DecodeContext {
  network: NetworkName;
  /** Accepted pairs by address (every pair the range's events name is among them). */
  pairs: ReadonlyMap<Address, Pair>;
  /** The pool graph as of the range's start; every Sync of the range is applied to it in order. */
  pools: PoolIndex;
  pricing: PricingParams;
  wrappedNative: Address;
  /** V3 pools first met in this range that existed before it: their state just before it. */
  v3Snapshots?: V3Snapshots;
}

/** What one read of blocks [from, to] brought back: the input of validate and decode. */
export interface RangeRead {
  from: bigint;
  to: bigint;
  /** Headers: the first and last block, every block of the unfinalized window, and blocks whose logs carry no timestamp. */
  headers: Map<bigint, BlockRef>;
  /** Swap and Sync of accepted pairs, Deposit and Withdrawal of the wrapped native coin, in chain order. */
  events: RangeEvent[];
  /** The block hash every log of a block named; undefined when the logs of one block disagreed. */
  logBlockHashes: Map<bigint, Hash | undefined>;
  /** Unix seconds per block that has events. */
  timestamps: Map<bigint, number>;
  /** Signer and block of each transaction that swapped on an accepted pair. */
  senders: Map<Hash, { from: Address; blockHash: Hash }>;
  /** Logs eth_getLogs returned (before dropping those of unaccepted pools): sizes the next range. */
  logCount: number;
  /** Blocks read (headers or whole) and the transactions they held: the cost model learns blocks' weight from them. */
  blocksRead: { blocks: number; transactions: number };
  /**
   * Blocks whose header's bloom names Swap or Sync but whose logs no read could produce (the
   * range, the block by hash, its receipts): logs not served yet, or a bloom's false positive.
   * The indexer commits only below the first of them until they are confirmed.
   */
  unconfirmed: bigint[];
}

/** What readRange needs besides the block numbers. */
export interface ReadRangeDeps {
  client: RpcClient;
  /** Swap, Sync, Deposit and Withdrawal logs of blocks [from, to] (createRangeLogReader: by topic or by address). */
  readLogs: (from: bigint, to: bigint) => Promise<Log[]>;
  /** The wrapped native coin: only its Deposit and Withdrawal logs count. */
  wrapped: Address;
  /** How signers are read: whole blocks or transactions by hash, whichever costs less. */
  senderCosts: SenderReadCosts;
  /**
   * Checks unknown pool addresses (with the family their logs show: a V2 pair's or a V3 pool's)
   * against the configured factories; the accepted set of the given ones. `firstSeen`: the block
   * of each one's first log in the range (it exists there).
   */
  acceptPairs: (
    addresses: ReadonlyMap<Address, "v2" | "v3">,
    firstSeen: ReadonlyMap<Address, bigint>,
  ) => Promise<ReadonlySet<Address>>;
  /** The events this network reads (default: V2 pairs' and the wrapped coin's). */
  events?: RangeEventSet;
  /**
   * Whether a block's logs bloom says it may hold logs `readLogs` would return (default: Swap or
   * Sync of any contract); checked for the blocks whose logs did not come.
   */
  bloomNamesLogs?: (bloom: string | undefined) => boolean;
  /** Blocks at or above this get their headers read for hash links (head - finality depth). */
  unfinalizedFrom: bigint;
  /**
   * Blocks already read with their transactions (the head poll's): they serve as header and as
   * whole block without another call. Validation checks them against the logs like any read.
   */
  known?: ReadonlyMap<bigint, BlockRead>;
}

// Batched calls in flight at once (eth_getTransactionByHash, headers: the client batches them 100
// to a request): a dense range never floods the node.
const SENDER_WINDOW = 2_000;
// Whole blocks in flight at once, each its own request (createUrlTransport): hundreds of them at
// once queue inside the node until each takes longer than the timeout (seen on the demo's anvil
// under load: 430 timeouts and retries in one backfill).
const WHOLE_BLOCKS_AT_ONCE = 16;

const lower = <T extends string>(value: string): T => value.toLowerCase() as T;

/** Reads one block header (no transactions' bodies). */
export async function readHeader(client: RpcClient, number: bigint): Promise<BlockRef> {
  return (await readBlock(client, number, false)).ref;
}

/** One block as eth_getBlockByNumber gave it: its header, bloom and (when asked) transactions. */
export interface BlockRead {
  ref: BlockRef;
  bloom: string | undefined;
  /** The transactions' bodies (a whole block) or none (a header). */
  transactions: RawTransaction[];
  /** How many transactions the block holds (a header lists their hashes). */
  transactionCount: number;
}

interface RawTransaction {
  hash?: string;
  from?: string;
  blockHash?: string | null;
}

interface RawBlock {
  hash?: string | null;
  parentHash?: string;
  timestamp?: string;
  logsBloom?: string | null;
  transactions?: (RawTransaction | string)[];
}

/** One eth_getBlockByNumber, with the transactions' bodies or without; a block the node lacks is an error to retry. */
async function readBlock(client: RpcClient, number: bigint, withTransactions: boolean): Promise<BlockRead> {
  const block = (await client.request({
    method: "eth_getBlockByNumber",
    params: [numberToHex(number), withTransactions],
  })) as RawBlock | null;
  return blockReadOf(block, number, withTransactions);
}

/** The node's newest block with its transactions' bodies: a head poll that is also the head's block read. */
export async function readLatestBlock(client: RpcClient): Promise<BlockRead> {
  const block = (await client.request({
    method: "eth_getBlockByNumber",
    params: ["latest", true],
  })) as (RawBlock & { number?: string | null }) | null;
  if (block === null || typeof block.number !== "string") {
    throw new RpcError("The node answered the latest block without a number.");
  }
  return blockReadOf(block, BigInt(block.number), true);
}

function blockReadOf(block: RawBlock | null, number: bigint, withTransactions: boolean): BlockRead {
  if (block === null || typeof block.hash !== "string" || typeof block.parentHash !== "string") {
    throw new BlockNotServedError(`Block ${number} is not known to the node yet.`);
  }
  return {
    ref: {
      number,
      hash: lower<Hash>(block.hash),
      parentHash: lower<Hash>(block.parentHash),
      timestamp: Number(block.timestamp),
    },
    bloom: typeof block.logsBloom === "string" ? block.logsBloom : undefined,
    transactions: withTransactions
      ? (block.transactions ?? []).filter((tx): tx is RawTransaction => typeof tx === "object" && tx !== null)
      : [],
    transactionCount: block.transactions?.length ?? 0,
  };
}

/**
 * The range's events of a block whose logs did not come although its bloom names them: asked by
 * block hash (EIP-234, one eth_getLogs), and if that is empty too, from the block's receipts (the
 * node's own record, not a log index). Undefined when neither can tell (receipts not served):
 * the block stays unconfirmed.
 */
async function recoverLogsOfBlock(
  client: RpcClient,
  blockHash: Hash,
  topics: readonly Hex[],
): Promise<Log[] | undefined> {
  const raw = (await client.request({
    method: "eth_getLogs",
    params: [{ blockHash, topics: [[...topics]] }],
  })) as RpcLog[];
  if (raw.length > 0) return raw.map((item) => formatLog(item));
  let receipts: { logs?: RpcLog[] }[] | null;
  try {
    receipts = (await client.request({
      method: "eth_getBlockReceipts" as "eth_getLogs",
      params: [blockHash] as never,
    })) as unknown as { logs?: RpcLog[] }[] | null;
  } catch {
    return undefined;
  }
  if (!Array.isArray(receipts)) return undefined;
  const wanted = new Set<string>(topics);
  return receipts
    .flatMap((receipt) => receipt.logs ?? [])
    .filter((item) => wanted.has(String(item.topics[0]).toLowerCase()))
    .map((item) => formatLog(item));
}

function position(item: Log): LogPosition | undefined {
  if (item.blockNumber === null || item.logIndex === null || item.transactionHash === null) return undefined;
  return {
    blockNumber: item.blockNumber,
    logIndex: item.logIndex,
    txHash: lower<Hash>(item.transactionHash),
    txIndex: item.transactionIndex ?? 0,
  };
}

interface DecodedLogs {
  events: RangeEvent[];
  logBlockHashes: Map<bigint, Hash | undefined>;
  timestamps: Map<bigint, number>;
  /** Transactions that swapped on an accepted pair, and their block. */
  swapTxs: Map<Hash, bigint>;
}

/** The events of accepted pools and the wrapped coin, in chain order, with what validation checks. */
async function decodeLogs(deps: ReadRangeDeps, logs: readonly Log[], wrapped: Address): Promise<DecodedLogs> {
  const pools = new Map<Address, "v2" | "v3">();
  const firstSeen = new Map<Address, bigint>();
  for (const item of logs) {
    const family = poolFamilyOf(item.topics[0]?.toLowerCase());
    if (family === undefined) continue;
    const pool = lower<Address>(item.address);
    pools.set(pool, family);
    const seen = firstSeen.get(pool);
    if (item.blockNumber !== null && (seen === undefined || item.blockNumber < seen)) {
      firstSeen.set(pool, item.blockNumber);
    }
  }
  const accepted = await deps.acceptPairs(pools, firstSeen);

  const events: RangeEvent[] = [];
  const logBlockHashes = new Map<bigint, Hash | undefined>();
  const timestamps = new Map<bigint, number>();
  const swapTxs = new Map<Hash, bigint>();
  const note = (item: Log, at: LogPosition) => {
    const hash = item.blockHash === null ? undefined : lower<Hash>(item.blockHash);
    const seen = logBlockHashes.get(at.blockNumber);
    if (!logBlockHashes.has(at.blockNumber)) logBlockHashes.set(at.blockNumber, hash);
    else if (seen !== hash) logBlockHashes.set(at.blockNumber, undefined);
    const stamp = (item as { blockTimestamp?: bigint | null }).blockTimestamp;
    if (typeof stamp === "bigint") timestamps.set(at.blockNumber, Number(stamp));
  };

  const wrappedLogs: Log[] = [];
  for (const item of logs) {
    if (isWrappedTopic(item.topics[0]?.toLowerCase())) {
      if (lower<Address>(item.address) === wrapped) wrappedLogs.push(item);
      continue;
    }
    const pair = lower<Address>(item.address);
    if (!accepted.has(pair)) continue;
    const at = position(item);
    if (at === undefined) continue;
    const event = decodePoolLog(item, at, pair);
    if (event === undefined) continue;
    events.push(event);
    // The signers of swaps and of liquidity changes are read (a trade's sender, an event's); a
    // V3 pool's price and balance changes (Initialize, Collect, Flash) need none.
    if (event.kind !== "sync" && event.kind !== "v3init" && event.kind !== "v3balance") {
      swapTxs.set(at.txHash, at.blockNumber);
    }
    note(item, at);
  }
  for (const item of wrappedLogs) {
    const at = position(item);
    // Only the transactions that swapped need to know what was wrapped or unwrapped.
    if (at === undefined || !swapTxs.has(at.txHash)) continue;
    const event = decodeWrappedLog(item, at);
    if (event === undefined) continue;
    events.push(event);
    note(item, at);
  }
  events.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  return { events, logBlockHashes, timestamps, swapTxs };
}

/**
 * Reads blocks [from, to] leanly: the pools' Swap and Sync and the wrapped native coin's Deposit
 * and Withdrawal (one eth_getLogs per chunk, by topic or by address); unknown pools are checked against the factories;
 * then the signers of the transactions that swapped on accepted pairs, per block either with the
 * whole block (one call, which brings the header too) or each transaction by hash, whichever the
 * cost model prices lower; then only the headers still needed for hash links and timestamps the
 * logs do not carry. A block whose header's bloom names the Swap or Sync topic but whose logs
 * did not come (a node behind its balancer's head) has its logs read again by block hash.
 */
export async function readRange(deps: ReadRangeDeps, from: bigint, to: bigint): Promise<RangeRead> {
  return readRangeOf(deps, from, to, await deps.readLogs(from, to));
}

async function readRangeOf(
  deps: ReadRangeDeps,
  from: bigint,
  to: bigint,
  logs: readonly Log[],
  /** Set once the blooms were checked (the blocks still unconfirmed then). */
  carried?: bigint[],
): Promise<RangeRead> {
  const { client } = deps;
  const read = await decodeLogs(deps, logs, lower<Address>(deps.wrapped));

  // Headers needed: the range's ends, the unfinalized window, blocks whose logs carry no time.
  const headerNumbers = new Set<bigint>([from, to]);
  for (let n = from > deps.unfinalizedFrom ? from : deps.unfinalizedFrom; n <= to; n++) headerNumbers.add(n);
  for (const number of read.logBlockHashes.keys())
    if (!read.timestamps.has(number)) headerNumbers.add(number);
  const tradesPerBlock = new Map<bigint, number>();
  for (const block of read.swapTxs.values()) tradesPerBlock.set(block, (tradesPerBlock.get(block) ?? 0) + 1);
  // A whole block also replaces the header read of its block; a block already read whole (the
  // head poll's) serves as both.
  const known = deps.known ?? new Map<bigint, BlockRead>();
  const whole = new Set<bigint>();
  for (const [block, trades] of tradesPerBlock) {
    if (known.has(block) || readsWholeBlock(trades, headerNumbers.has(block), deps.senderCosts))
      whole.add(block);
  }
  for (const block of whole) headerNumbers.delete(block);
  const byHash = [...read.swapTxs].filter(([, block]) => !whole.has(block)).map(([hash]) => hash);
  const readOrKnown = (n: bigint, withTransactions: boolean) => {
    const block = known.get(n);
    return block === undefined ? readBlock(client, n, withTransactions) : Promise.resolve(block);
  };

  const [headerList, blocks, senders] = await Promise.all([
    mapInWindows([...headerNumbers], SENDER_WINDOW, (n) => readOrKnown(n, false)),
    mapWithConcurrency([...whole], WHOLE_BLOCKS_AT_ONCE, (n) => readOrKnown(n, true)),
    readSenders(client, byHash),
  ]);
  const headers = new Map<bigint, BlockRef>();
  const blooms = new Map<bigint, string | undefined>();
  let transactions = 0;
  for (const block of [...headerList, ...blocks]) {
    headers.set(block.ref.number, block.ref);
    blooms.set(block.ref.number, block.bloom);
    transactions += block.transactionCount;
  }
  for (const block of blocks) {
    for (const tx of block.transactions) {
      const hash = typeof tx.hash === "string" ? lower<Hash>(tx.hash) : undefined;
      if (hash === undefined || typeof tx.from !== "string" || !read.swapTxs.has(hash)) continue;
      senders.set(hash, { from: lower<Address>(tx.from), blockHash: block.ref.hash });
    }
  }

  let unconfirmed = carried;
  if (carried === undefined) {
    const withLogs = new Set(logs.map((item) => item.blockNumber));
    const missing = [...headers.values()].filter(
      (header) =>
        !withLogs.has(header.number) &&
        (deps.bloomNamesLogs ?? (deps.events ?? V2_EVENT_SET).bloomNamesPoolLogs)(blooms.get(header.number)),
    );
    const topics = (deps.events ?? V2_EVENT_SET).topics;
    const found = await Promise.all(missing.map((header) => recoverLogsOfBlock(client, header.hash, topics)));
    unconfirmed = missing.filter((_, i) => found[i] === undefined).map((header) => header.number);
    const again = found.flatMap((list) => list ?? []);
    // The range's answer was incomplete: decode it again with those blocks' own logs.
    if (again.length > 0) return readRangeOf(deps, from, to, [...logs, ...again], unconfirmed);
  }

  for (const number of read.logBlockHashes.keys()) {
    const header = headers.get(number);
    if (header !== undefined && !read.timestamps.has(number)) read.timestamps.set(number, header.timestamp);
  }
  return {
    from,
    to,
    headers,
    events: read.events,
    logBlockHashes: read.logBlockHashes,
    timestamps: read.timestamps,
    senders,
    logCount: logs.length,
    blocksRead: { blocks: headerList.length + blocks.length, transactions },
    unconfirmed: (unconfirmed ?? []).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

/** `read` over `items`, `window` at a time (one tick each, so that the client batches them). */
async function mapInWindows<T, R>(
  items: readonly T[],
  window: number,
  read: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += window) {
    results.push(...(await Promise.all(items.slice(i, i + window).map(read))));
  }
  return results;
}

/** tx.from of each transaction, in windows so that a dense range never floods the node. */
async function readSenders(
  client: RpcClient,
  hashes: readonly Hash[],
): Promise<Map<Hash, { from: Address; blockHash: Hash }>> {
  const senders = new Map<Hash, { from: Address; blockHash: Hash }>();
  for (let i = 0; i < hashes.length; i += SENDER_WINDOW) {
    const window = hashes.slice(i, i + SENDER_WINDOW);
    const txs = await Promise.all(
      window.map(
        (hash) =>
          client.request({
            method: "eth_getTransactionByHash",
            params: [hash],
          }) as Promise<RawTransaction | null>,
      ),
    );
    for (const [j, tx] of txs.entries()) {
      const hash = window[j]!;
      // A transaction the node no longer knows moved with a reorg: validation reads the range again.
      if (tx === null || typeof tx.from !== "string" || typeof tx.blockHash !== "string") continue;
      senders.set(hash, { from: lower<Address>(tx.from), blockHash: lower<Hash>(tx.blockHash) });
    }
  }
  return senders;
}

/** The part of a read range up to block `to` (its header must have been read). Pure. */
export function truncateRange(read: RangeRead, to: bigint): RangeRead {
  const below = <T>(map: Map<bigint, T>) => new Map([...map].filter(([number]) => number <= to));
  return {
    ...read,
    to,
    headers: below(read.headers),
    events: read.events.filter((event) => event.blockNumber <= to),
    logBlockHashes: below(read.logBlockHashes),
    timestamps: below(read.timestamps),
    unconfirmed: [],
  };
}
