import { formatDecimal } from "../../domain/formatDecimal.js";
import type { Address, Hash, NetworkName, TokenRef, Trade } from "../../domain/types.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import type { TokenSource } from "./listTokens.js";

const USD_DECIMALS = 18;

/**
 * The parent of TokenAmount fields. `token` is a value, not a resolver: a list of swaps has two
 * amounts a row, and a resolver call costs the executor far more than reading a property.
 */
export interface TokenAmountSource {
  readonly network: NetworkName;
  readonly ref: TokenRef;
  readonly amount: bigint;
  /**
   * The token: the one this request loaded (synchronous after a list's preloadTokens), the
   * error its load failed with, or else a load of it (batched per request).
   */
  readonly token: TokenSource | Error | Promise<TokenSource>;
}

/** The parent of Swap fields: a trade whose derived fields are properties (see TokenAmountSource). */
export interface SwapSource {
  readonly network: NetworkName;
  readonly txHash: Hash;
  readonly blockNumber: bigint;
  readonly timestamp: number;
  readonly txIndex: number;
  readonly logIndex: number;
  readonly sender: Address;
  readonly tracked: boolean;
  readonly pools: readonly Address[];
  readonly sell: TokenAmountSource;
  readonly buy: TokenAmountSource;
  /** The trade's USD value as a decimal string, formatted when first read. */
  readonly volumeUSD: string;
}

class TokenAmount implements TokenAmountSource {
  constructor(
    readonly network: NetworkName,
    readonly ref: TokenRef,
    readonly amount: bigint,
    private readonly ctx: GraphqlContext,
  ) {}

  #token: TokenSource | Error | Promise<TokenSource> | undefined;

  // Kept once found: an executor reads a field's value more than once.
  get token(): TokenSource | Error | Promise<TokenSource> {
    const { ctx, network, ref } = this;
    this.#token ??=
      ctx.peekToken(network, ref) ??
      ctx.peekTokenError(network, ref) ??
      ctx
        .tokens(network)
        .load(ref)
        .then((token): TokenSource => ({ ...token, network }));
    return this.#token;
  }
}

class Swap implements SwapSource {
  readonly sell: TokenAmountSource;
  readonly buy: TokenAmountSource;
  #volumeUSD: string | undefined;

  constructor(
    private readonly trade: Trade,
    ctx: GraphqlContext,
  ) {
    this.sell = new TokenAmount(trade.network, trade.tokenIn, trade.amountIn, ctx);
    this.buy = new TokenAmount(trade.network, trade.tokenOut, trade.amountOut, ctx);
  }

  get network() {
    return this.trade.network;
  }
  get txHash() {
    return this.trade.txHash;
  }
  get blockNumber() {
    return this.trade.blockNumber;
  }
  get timestamp() {
    return this.trade.timestamp;
  }
  get txIndex() {
    return this.trade.txIndex;
  }
  get logIndex() {
    return this.trade.logIndex;
  }
  get sender() {
    return this.trade.sender;
  }
  get tracked() {
    return this.trade.tracked;
  }
  get pools() {
    return this.trade.pools;
  }
  get volumeUSD() {
    this.#volumeUSD ??= formatDecimal(this.trade.volumeUsd, USD_DECIMALS);
    return this.#volumeUSD;
  }
}

/** A trade as the parent of Swap fields, within one request (its token loads are the request's). */
export function createSwapSource(trade: Trade, ctx: GraphqlContext): SwapSource {
  return new Swap(trade, ctx);
}

/** An amount of a token as the parent of TokenAmount fields, within one request. */
export function createTokenAmountSource(
  network: NetworkName,
  ref: TokenRef,
  amount: bigint,
  ctx: GraphqlContext,
): TokenAmountSource {
  return new TokenAmount(network, ref, amount, ctx);
}

/**
 * A TokenAmount whose token is loaded first (preloadTokens: batched with the request's other
 * loads), so that its `token` is a value: for fields that return one amount (a pool's reserves).
 * graphql-jit, which compiles the operations the tests render the REST and listing answers with
 * (test/support/createGraphqlExecutor.ts), reads a property as it is and does not wait for a promise
 * in it, as graphql-js does.
 */
export async function createLoadedTokenAmountSource(
  network: NetworkName,
  ref: TokenRef,
  amount: bigint,
  ctx: GraphqlContext,
): Promise<TokenAmountSource> {
  await ctx.preloadTokens(network, [ref]);
  return new TokenAmount(network, ref, amount, ctx);
}
