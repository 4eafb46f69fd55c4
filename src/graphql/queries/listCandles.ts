import { formatDecimal } from "../../domain/formatDecimal.js";
import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import type { Candle, CandleInterval, CandleSubject } from "../../domain/market.js";
import { type Address, NATIVE, type NetworkName, type Token } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "../../views/assertNetworkReady.js";
import { parseTokenInput, resolveToken } from "../../views/resolveToken.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { tokenStatsSubject } from "./getMarketStats.js";
import { type AggregatedInterval, fillCandles, readCandleBuckets } from "./readCandleBuckets.js";

/** Arguments of the candles query (null where GraphQL passes an explicit null); interval in seconds. */
export interface CandlesArgs {
  network: NetworkName;
  token?: string | null | undefined;
  pool?: string | null | undefined;
  interval: CandleInterval | AggregatedInterval;
  from?: number | null | undefined;
  to?: number | null | undefined;
  before?: number | null | undefined;
  fill?: boolean | null | undefined;
  first?: number | null | undefined;
}

/** A Candle as the schema shows it: prices and volumes as exact decimals. */
export interface CandleOutput {
  start: number;
  open: string | null;
  high: string | null;
  low: string | null;
  close: string | null;
  volume: string;
  quoteVolume: string;
  tradeCount: number;
  volumeUSD: string | null;
}

/** Largest page: a day of 5-minute candles, or 1,000 minutes. */
const MAX_CANDLES_PAGE = 1000;
const USD_DECIMALS = 18;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/**
 * One page of a token's USD candles or a pool's candles (token0 in token1), buckets ascending
 * from the one holding `from` (default: `first` intervals before now) to those starting before
 * `to`: one read over the store's primary key. Throws 400 for bad arguments, 503 when the
 * network is not ready or its data is stale.
 */
export async function listCandles(args: CandlesArgs, ctx: GraphqlContext): Promise<CandleOutput[]> {
  const { reader } = ctx;
  const { network, interval } = args;
  assertNetworkConfigured(reader, network);
  const first = args.first ?? 100;
  if (!Number.isInteger(first) || first < 1 || first > MAX_CANDLES_PAGE) {
    throw new BadRequestError(`first must be between 1 and ${MAX_CANDLES_PAGE}.`);
  }
  if (present(args.token) === present(args.pool)) {
    throw new BadRequestError("Give exactly one of token and pool.");
  }
  if (present(args.to) && present(args.before))
    throw new BadRequestError("Give at most one of to and before.");
  const to = args.to ?? args.before ?? undefined;
  // Without from: the `first` intervals up to the end (before, else now).
  const from = args.from ?? Math.max(0, (args.before ?? ctx.now) - first * interval);
  if (to !== undefined && from > to) {
    throw new BadRequestError(`from must not be later than ${present(args.before) ? "before" : "to"}.`);
  }
  const tokenInput = present(args.token) ? parseTokenInput(args.token, "token") : undefined;
  if (present(args.pool) && !ADDRESS.test(args.pool)) {
    throw new BadRequestError("pool must be an address: 0x followed by 40 hex digits.");
  }
  assertNetworkReady(reader, network, ctx.nowMs);

  let subject: CandleSubject;
  let format: (candle: Candle) => CandleOutput;
  if (tokenInput !== undefined) {
    let token: Token = await resolveToken(reader, network, tokenInput, "token");
    if (token.address === NATIVE) {
      // The native coin trades as its wrapped token in every pool: one series for both.
      const wrapped = reader.getConfig(network).native.wrapped;
      token = reader.getToken(network, wrapped) ?? { ...token, address: wrapped };
    }
    subject = { kind: "token", token: token.address as Address };
    const { decimals } = token;
    format = (candle) =>
      output(
        candle,
        (price) => formatDecimal(price, USD_DECIMALS),
        formatDecimal(candle.volume, decimals),
        formatDecimal(candle.quoteVolume, USD_DECIMALS),
      );
  } else {
    const address = args.pool!.toLowerCase() as Address;
    const pool = reader.getPoolIndex(network).get(address);
    if (pool === undefined)
      throw new BadRequestError(`Pool ${address} is not an indexed pool on ${network}.`);
    const [token0, token1] = await Promise.all([
      ctx.tokens(network).load(pool.token0),
      ctx.tokens(network).load(pool.token1),
    ]);
    subject = { kind: "pool", pool: address };
    format = (candle) =>
      output(
        candle,
        (price) => formatPoolPrice(price, token0.decimals, token1.decimals),
        formatDecimal(candle.volume, token0.decimals),
        formatDecimal(candle.quoteVolume, token1.decimals),
      );
  }
  const candles = await readCandleBuckets(reader, network, { subject, interval, from, to, first });
  if (args.fill !== true) return candles.map(format);
  // The price in force at the first bucket's start: the series' last sample before it.
  const withNative = subject.kind === "token" && tokenStatsSubject(reader, network, subject.token).withNative;
  const previousClose = await reader.getLastPrice(network, {
    subject,
    withNative,
    beforeTimestamp: from - (from % interval),
    maxBlock: reader.status(network).indexedBlock ?? 0n,
  });
  const end = to ?? ctx.now + 1;
  return fillCandles(candles, { from, end, interval, first, previousClose }).map(format);
}

function output(
  candle: Candle,
  price: (value: bigint) => string,
  volume: string,
  quoteVolume: string,
): CandleOutput {
  const optional = (value: bigint | undefined) => (value === undefined ? null : price(value));
  return {
    start: candle.start,
    open: optional(candle.open),
    high: optional(candle.high),
    low: optional(candle.low),
    close: optional(candle.close),
    volume,
    quoteVolume,
    tradeCount: candle.tradeCount,
    volumeUSD: candle.volumeUsd === undefined ? null : formatDecimal(candle.volumeUsd, USD_DECIMALS),
  };
}
