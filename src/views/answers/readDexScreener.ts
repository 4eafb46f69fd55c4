import type { Address, NetworkName, PoolEvent } from "../../domain/types.js";
import { BadRequestError, NetworkIndexingError, SwapgraphError } from "../../errors.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import type { MarketDiscovery, MarketHistory, MarketState } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";
import { buildDexScreenerAsset } from "./buildDexScreenerAsset.js";
import { checksummed, createPoolEventRenderer } from "./createPoolEventRenderer.js";

/**
 * The most blocks one events request may ask for.
 * @internal exported for tests, which hold schema/openapi.yaml's description of events to it.
 */
export const MAX_EVENT_BLOCKS = 100_000;
/** Events read from the store per page while an events answer is made. */
const EVENTS_PAGE_SIZE = 1_000;

/** A DEX Screener answer made at the network's indexed block, with the freshness it was made at. */
interface DexScreenerAnswer<T> {
  value: T;
  networkStatus: AnswerFreshness;
}

/** The network's indexed block at `nowMs`, refusing a network that does not serve (503). */
function servedBlock(reader: MarketState, network: NetworkName, nowMs: number) {
  assertNetworkReady(reader, network, nowMs);
  const block = reader.status(network).indexedBlock;
  if (block === undefined) throw new NetworkIndexingError(network);
  return { block, networkStatus: answerFreshness(reader, network, nowMs) };
}

/** latest-block: the indexed block, whose events are all served. */
export async function readDexScreenerLatestBlock(
  reader: MarketState & Pick<MarketHistory, "getStoredBlock">,
  network: NetworkName,
  nowMs: number,
): Promise<DexScreenerAnswer<{ block: { blockNumber: number; blockTimestamp: number } }>> {
  const { block, networkStatus } = servedBlock(reader, network, nowMs);
  const stored = await reader.getStoredBlock(network, block);
  if (stored === undefined) throw new NetworkIndexingError(network);
  return {
    value: { block: { blockNumber: Number(stored.number), blockTimestamp: stored.timestamp } },
    networkStatus,
  };
}

/**
 * asset?id=: a token of an indexed pool, with its totalSupply at the indexed block (eth_call, read
 * once per block); left out when the token or the RPC does not answer (`onSupplyError` is told).
 */
export async function readDexScreenerAsset(
  reader: MarketState & Pick<MarketDiscovery, "readTotalSupply">,
  network: NetworkName,
  id: Address,
  options: { nowMs: number; onSupplyError?: (error: unknown) => void },
): Promise<DexScreenerAnswer<ReturnType<typeof buildDexScreenerAsset>>> {
  const { block, networkStatus } = servedBlock(reader, network, options.nowMs);
  const token = reader.getToken(network, id);
  if (token === undefined || reader.getPoolIndex(network).poolsOf(id).length === 0) {
    throw new SwapgraphError("NOT_FOUND", `No indexed pool on ${network} holds asset ${id}.`);
  }
  const supply = await reader.readTotalSupply(network, id, block).catch((error: unknown) => {
    options.onSupplyError?.(error);
    return undefined;
  });
  return { value: buildDexScreenerAsset(id, token, supply), networkStatus };
}

/** pair?id=: an indexed pool. */
export async function readDexScreenerPair(
  reader: MarketState,
  network: NetworkName,
  id: Address,
  nowMs: number,
): Promise<DexScreenerAnswer<{ pair: Record<string, unknown> }>> {
  const { networkStatus } = servedBlock(reader, network, nowMs);
  const pool = reader.getPoolIndex(network).get(id);
  if (pool === undefined)
    throw new SwapgraphError("NOT_FOUND", `Pair ${id} is not an indexed pool on ${network}.`);
  const pair = {
    id: checksummed(pool.address),
    dexKey: pool.dex,
    asset0Id: checksummed(pool.token0),
    asset1Id: checksummed(pool.token1),
    // Fee in bps: a V3 pool's exact fee is in pips (hundredths of a bp).
    feeBps: pool.v3 === undefined ? pool.feeBps : pool.v3.fee / 100,
    // The factory log that created the pool (found at discovery); left out when not found.
    ...(pool.created === undefined
      ? {}
      : {
          createdAtBlockNumber: Number(pool.created.blockNumber),
          createdAtBlockTimestamp: pool.created.timestamp,
          createdAtTxnId: pool.created.txHash,
        }),
  };
  return { value: { pair }, networkStatus };
}

/** An events answer, opened at the indexed block (the range checked, nothing read yet). */
export interface DexScreenerEvents {
  /** The range asked for, as numbers. */
  fromBlock: bigint;
  toBlock: bigint;
  /** The indexed block the answer is made at. */
  block: bigint;
  networkStatus: AnswerFreshness;
  /** Whether the range ends a finality depth below the indexed block: no reorg changes it any more. */
  settled: boolean;
  /**
   * Reads the first store page (before any byte goes out: errors answer as errors): the whole body
   * when the range holds less than a page, else the body in pieces, each page read once the one
   * before was taken.
   */
  read(): Promise<{ whole: Buffer } | { pieces: AsyncGenerator<Buffer> }>;
}

/** The block range of an events request, checked against the indexed block (400 when it is not a range served). */
function eventRange(query: { fromBlock: string; toBlock: string }, indexed: bigint): [bigint, bigint] {
  const from = BigInt(query.fromBlock);
  const to = BigInt(query.toBlock);
  if (from > to) throw new BadRequestError(`fromBlock ${from} is after toBlock ${to}.`);
  if (to > indexed) {
    throw new BadRequestError(
      `toBlock ${to} is after the latest indexed block ${indexed}; ask latest-block first.`,
    );
  }
  if (to - from >= BigInt(MAX_EVENT_BLOCKS)) {
    throw new BadRequestError(`toBlock: a range holds at most ${MAX_EVENT_BLOCKS} blocks; ask for less.`);
  }
  return [from, to];
}

/**
 * events?fromBlock=&toBlock=: every swap, join and exit of the range (inclusive), in chain order.
 * Opened synchronously (the status and the range checked, at the indexed block of `nowMs`), so a
 * caller may look for a kept copy before any I/O; `read` then makes it.
 */
export function openDexScreenerEvents(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  query: { fromBlock: string; toBlock: string; nowMs: number },
): DexScreenerEvents {
  const { block, networkStatus } = servedBlock(reader, network, query.nowMs);
  const [fromBlock, toBlock] = eventRange(query, block);
  const settled = toBlock <= block - BigInt(reader.getConfig(network).finalityDepth);
  const listPage = (after?: PoolEvent) =>
    reader.listPoolEvents(network, {
      fromBlock,
      toBlock,
      limit: EVENTS_PAGE_SIZE,
      ...(after === undefined ? {} : { after: { blockNumber: after.blockNumber, logIndex: after.logIndex } }),
    });
  async function* pieces(first: readonly PoolEvent[], render: (page: readonly PoolEvent[]) => string[]) {
    let page = first;
    let separator = "";
    yield Buffer.from('{"events":[');
    for (;;) {
      const rows = render(page);
      if (rows.length > 0) yield Buffer.from(separator + rows.join(","));
      if (rows.length > 0) separator = ",";
      if (page.length < EVENTS_PAGE_SIZE) break;
      // Let other requests in between pages.
      await new Promise((resolve) => setImmediate(resolve));
      page = await listPage(page[page.length - 1]);
    }
    yield Buffer.from("]}");
  }
  return {
    fromBlock,
    toBlock,
    block,
    networkStatus,
    settled,
    async read() {
      const render = createPoolEventRenderer(reader, network);
      const first = await listPage();
      if (first.length < EVENTS_PAGE_SIZE)
        return { whole: Buffer.from(`{"events":[${render(first).join(",")}]}`) };
      return { pieces: pieces(first, render) };
    },
  };
}
