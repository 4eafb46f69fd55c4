import { describe, expect, test } from "vitest";
import {
  BadRequestError,
  NetworkHaltedError,
  NetworkIndexingError,
  NetworkNotConfiguredError,
  NoRouteError,
  NotErc20Error,
  NotReadyError,
  RateLimitedError,
  StaleDataError,
  UnknownSymbolError,
  UnprocessableError,
} from "../src/errors.js";

describe("errors", () => {
  test("behavior: each condition builds its message from its fields and keeps the code and status of its kind", () => {
    const cases = [
      [
        new NotErc20Error({ address: "0xabc", network: "bsc", reason: "decimals() reverted" }),
        BadRequestError,
        400,
      ],
      [new UnknownSymbolError({ param: "sellToken", symbol: "NOPE", network: "eth" }), BadRequestError, 400],
      [new NoRouteError({ sellSymbol: "A", buySymbol: "B", network: "polygon" }), UnprocessableError, 422],
      [new NetworkNotConfiguredError("eth"), NotReadyError, 503],
      [new NetworkIndexingError("eth"), NotReadyError, 503],
      [new NetworkHaltedError("bsc", "reorg deeper than 64 blocks at http://key@node"), NotReadyError, 503],
      [new StaleDataError({ network: "bsc", ageSeconds: 700, limitSeconds: 600 }), NotReadyError, 503],
      [new RateLimitedError(20, 1), Error, 429],
    ] as const;
    for (const [error, kind, status] of cases) {
      expect(error).toBeInstanceOf(kind);
      expect(error.status).toBe(status);
    }
    expect(cases.map(([error]) => `${error.name}: ${error.message}`)).toMatchInlineSnapshot(`
      [
        "NotErc20Error: 0xabc is not an ERC-20 token contract on bsc.",
        "UnknownSymbolError: sellToken symbol "NOPE" is not supported on eth; retry with the token's contract address.",
        "NoRouteError: No liquidity route from A to B on polygon in the indexed pools.",
        "NetworkNotConfiguredError: Network eth is not configured on this server.",
        "NetworkIndexingError: Network eth is still being indexed; retry in a few minutes.",
        "NetworkHaltedError: Network bsc is temporarily unavailable; retry later.",
        "StaleDataError: Network bsc's indexed data is 700 seconds old, beyond its 600-second freshness limit; retry later.",
        "RateLimitedError: Too many requests: at most 20 per second per client; retry after 1 s.",
      ]
    `);
    // Operator text (which may name URLs with keys) stays in details, never in the message.
    expect(new NetworkHaltedError("bsc", "at http://key@node").details).toBe("at http://key@node");
    expect(new NotErc20Error({ address: "0xabc", network: "bsc", reason: "no code" }).details).toBe(
      "no code",
    );
  });
});
