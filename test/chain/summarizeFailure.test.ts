import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { describe, expect, test } from "vitest";
import { summarizeFailure } from "../../src/chain/summarizeFailure.js";
import { DeepReorgError, RpcError } from "../../src/errors.js";

const url = "https://bsc.example/v3/SECRETKEY";
const body = { method: "eth_blockNumber", params: [] };

describe("summarizeFailure", () => {
  test("behavior: RPC failures become a few words, without URL, request body or viem's version", () => {
    const http = new HttpRequestError({ url, body, status: 503, details: "upstream down" });
    expect(http.message).toContain("SECRETKEY");
    expect(summarizeFailure(http)).toBe("RPC unavailable: HTTP 503");
    expect(summarizeFailure(new HttpRequestError({ url, body, details: "fetch failed" }))).toBe(
      "RPC unavailable: the connection failed",
    );
    expect(summarizeFailure(new TimeoutError({ url, body }))).toBe("RPC unavailable: the request timed out");
    expect(
      summarizeFailure(new RpcRequestError({ url, body, error: { code: -32005, message: "limit" } })),
    ).toBe("RPC unavailable: JSON-RPC error -32005");
    expect(summarizeFailure(new RpcError("eth_getLogs failed for blocks 1..2 pairs.", { cause: http }))).toBe(
      "RPC unavailable: eth_getLogs failed for blocks 1..2 pairs (HTTP 503).",
    );
  });

  test("behavior: swapgraph's own messages are kept, URLs in them hidden; anything else points to the logs", () => {
    expect(summarizeFailure(new DeepReorgError(`Reorg at ${url} deeper than 64 blocks.`))).toBe(
      "Reorg at [url] deeper than 64 blocks.",
    );
    expect(summarizeFailure(new Error(`SQLITE_BUSY at ${url}`))).toBe("Indexing failed (the logs say why).");
    expect(summarizeFailure(new RpcError("x".repeat(500))).length).toBeLessThanOrEqual(200);
  });
});
