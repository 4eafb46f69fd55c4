import { type Hex, type Log, toEventSelector } from "viem";
import { swapEventAbi, syncEventAbi, wrappedNativeEventsAbi } from "../chain/abis.js";
import type { LogFetcher } from "../chain/createLogFetcher.js";
import type { RpcClient } from "../chain/createRpcClient.js";
import type { Address, BlockRef, Hash } from "../domain/types.js";

/** Where a log sits: its block, transaction and position. */
interface LogPosition {
  blockNumber: bigint;
  logIndex: number;
  txHash: Hash;
  txIndex: number;
}

/** A decoded log the indexer uses, in chain order. */
export type RangeEvent =
  | (LogPosition & {
      kind: "swap";
      pair: Address;
      amount0In: bigint;
      amount1In: bigint;
      amount0Out: bigint;
      amount1Out: bigint;
      to: Address;
    })
  | (LogPosition & { kind: "sync"; pair: Address; reserve0: bigint; reserve1: bigint })
  /** The wrapped native coin was minted to `account` (a router wrapping what the trader paid). */
  | (LogPosition & { kind: "deposit"; account: Address })
  /** The wrapped native coin was burnt by `account` (a router unwrapping for the trader). */
  | (LogPosition & { kind: "withdrawal"; account: Address });

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
}

/** What readRange needs besides the block numbers. */
export interface ReadRangeDeps {
  client: RpcClient;
  /** eth_getLogs of Swap and Sync, any address. */
  pairLogs: LogFetcher;
  /** eth_getLogs of Deposit and Withdrawal of the wrapped native coin. */
  wrappedLogs: LogFetcher;
  /** Checks unknown pool addresses against the configured factories; the accepted set of the given ones. */
  acceptPairs: (addresses: ReadonlySet<Address>) => Promise<ReadonlySet<Address>>;
  /** Blocks at or above this get their headers read for hash links (head - finality depth). */
  unfinalizedFrom: bigint;
}

// eth_getTransactionByHash calls in flight at once (the client batches them 100 to a request).
const SENDER_WINDOW = 2_000;

const SWAP = toEventSelector(swapEventAbi);
const SYNC = toEventSelector(syncEventAbi);
const DEPOSIT = toEventSelector(wrappedNativeEventsAbi[0]);
const WITHDRAWAL = toEventSelector(wrappedNativeEventsAbi[1]);

// The events have fixed layouts: reading their words directly costs a fraction of a generic ABI
// decoder, and the hot path of a backfill is decoding. A log whose layout does not match (another
// contract's event with the same signature but other indexed fields) is skipped, as viem's
// non-strict parsing would.
function word(data: Hex, i: number): bigint {
  return BigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`);
}

function topicAddress(topic: Hex | undefined): Address | undefined {
  return topic === undefined || topic.length !== 66 ? undefined : lower<Address>(`0x${topic.slice(26)}`);
}

const lower = <T extends string>(value: string): T => value.toLowerCase() as T;

/** Reads one block header (no transactions' bodies). */
export async function readHeader(client: RpcClient, number: bigint): Promise<BlockRef> {
  const block = await client.getBlock({ blockNumber: number });
  return {
    number,
    hash: lower<Hash>(block.hash),
    parentHash: lower<Hash>(block.parentHash),
    timestamp: Number(block.timestamp),
  };
}

async function collect(fetcher: LogFetcher, from: bigint, to: bigint): Promise<Log[]> {
  const logs: Log[] = [];
  for await (const chunk of fetcher.chunks(from, to)) for (const item of chunk.logs) logs.push(item);
  return logs;
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

interface RawTransaction {
  from?: string;
  blockHash?: string | null;
}

/**
 * Reads blocks [from, to] leanly: the Swap and Sync logs of every pool and the wrapped native
 * coin's Deposit and Withdrawal logs; unknown pools are checked against the factories; then only
 * the senders of the transactions that swapped on accepted pairs (eth_getTransactionByHash,
 * batched) and only the headers needed for hash links and timestamps the logs do not carry.
 */
export async function readRange(deps: ReadRangeDeps, from: bigint, to: bigint): Promise<RangeRead> {
  const { client } = deps;
  const [pairLogs, wrappedLogs] = await Promise.all([
    collect(deps.pairLogs, from, to),
    collect(deps.wrappedLogs, from, to),
  ]);
  const pools = new Set<Address>();
  for (const item of pairLogs) pools.add(lower<Address>(item.address));
  const accepted = await deps.acceptPairs(pools);

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

  for (const item of pairLogs) {
    const pair = lower<Address>(item.address);
    if (!accepted.has(pair)) continue;
    const at = position(item);
    if (at === undefined) continue;
    const topic0 = item.topics[0]?.toLowerCase();
    if (topic0 === SYNC && item.topics.length === 1 && item.data.length === 2 + 128) {
      events.push({ ...at, kind: "sync", pair, reserve0: word(item.data, 0), reserve1: word(item.data, 1) });
    } else if (topic0 === SWAP && item.topics.length === 3 && item.data.length === 2 + 256) {
      const recipient = topicAddress(item.topics[2]);
      if (recipient === undefined) continue;
      events.push({
        ...at,
        kind: "swap",
        pair,
        amount0In: word(item.data, 0),
        amount1In: word(item.data, 1),
        amount0Out: word(item.data, 2),
        amount1Out: word(item.data, 3),
        to: recipient,
      });
      swapTxs.set(at.txHash, at.blockNumber);
    } else continue;
    note(item, at);
  }
  for (const item of wrappedLogs) {
    const at = position(item);
    // Only the transactions that swapped need to know whether a router wrapped or unwrapped.
    if (at === undefined || !swapTxs.has(at.txHash)) continue;
    const topic0 = item.topics[0]?.toLowerCase();
    const account = topicAddress(item.topics[1]);
    if (account === undefined || item.topics.length !== 2 || item.data.length !== 2 + 64) continue;
    if (topic0 === DEPOSIT) events.push({ ...at, kind: "deposit", account });
    else if (topic0 === WITHDRAWAL) events.push({ ...at, kind: "withdrawal", account });
    else continue;
    note(item, at);
  }
  events.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );

  const headerNumbers = new Set<bigint>([from, to]);
  for (let n = from > deps.unfinalizedFrom ? from : deps.unfinalizedFrom; n <= to; n++) headerNumbers.add(n);
  for (const number of logBlockHashes.keys()) if (!timestamps.has(number)) headerNumbers.add(number);
  const [headerList, senders] = await Promise.all([
    Promise.all([...headerNumbers].map((n) => readHeader(client, n))),
    readSenders(client, [...swapTxs.keys()]),
  ]);
  const headers = new Map(headerList.map((header) => [header.number, header]));
  for (const number of logBlockHashes.keys()) {
    const header = headers.get(number);
    if (header !== undefined && !timestamps.has(number)) timestamps.set(number, header.timestamp);
  }
  return {
    from,
    to,
    headers,
    events,
    logBlockHashes,
    timestamps,
    senders,
    logCount: pairLogs.length + wrappedLogs.length,
  };
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
