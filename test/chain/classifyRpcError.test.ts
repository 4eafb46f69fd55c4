import {
  HttpRequestError,
  InvalidInputRpcError,
  LimitExceededRpcError,
  RpcRequestError,
  TimeoutError,
} from "viem";
import { describe, expect, test } from "vitest";
import { classifyRpcError, suggestedRange } from "../../src/chain/classifyRpcError.js";

// Errors shaped as viem builds them from a provider's JSON-RPC answer.
function providerError(code: number, message: string) {
  const request = new RpcRequestError({ body: {}, error: { code, message }, url: "http://rpc" });
  return code === -32005 ? new LimitExceededRpcError(request) : new InvalidInputRpcError(request);
}

describe("classifyRpcError", () => {
  test.each([
    "block range too large",
    "query returned more than 10000 results",
    "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range",
    "exceed maximum block range: 5000",
    "eth_getLogs is limited to a 10,000 range",
    "block range is too wide",
    "max range: 1000",
  ])("behavior: provider range error %j is a range error for eth_getLogs", (message) => {
    expect(classifyRpcError(providerError(-32005, message), "eth_getLogs")).toBe("range");
    // The same words on another method are not about log ranges.
    expect(classifyRpcError(providerError(-32005, message), "eth_call")).toBe("transient");
  });

  test("behavior: statuses, timeouts, reverts and missing state", () => {
    const http = (status: number) => new HttpRequestError({ body: {}, status, url: "http://rpc" });
    expect(classifyRpcError(http(413), "eth_getLogs")).toBe("range");
    expect(classifyRpcError(http(429), "eth_getLogs")).toBe("transient");
    expect(classifyRpcError(http(503), "eth_call")).toBe("transient");
    expect(classifyRpcError(http(401), "eth_call")).toBe("fatal");
    expect(classifyRpcError(new TimeoutError({ body: {}, url: "http://rpc" }), "eth_getLogs")).toBe("range");
    expect(classifyRpcError(new TimeoutError({ body: {}, url: "http://rpc" }), "eth_call")).toBe("transient");
    expect(classifyRpcError(providerError(3, "execution reverted"), "eth_call")).toBe("revert");
    expect(classifyRpcError(providerError(-32000, "missing trie node 0x12 (path )"), "eth_call")).toBe(
      "fatal",
    );
    expect(classifyRpcError(providerError(-32000, "header not found"), "eth_call")).toBe("transient");
  });
});

describe("classifyRpcError of execution failures", () => {
  test.each([
    [-32603, "EVM error OutOfGas"],
    [-32603, "EVM error InvalidFEOpcode"],
    [-32000, "out of gas"],
    [-32000, "invalid opcode: INVALID"],
    [-32000, "execution aborted (timeout = 5s)"],
    [-32015, "VM execution error: OutOfGas"],
  ])("behavior: %i %j is the contract's answer, not a transient failure", (code, message) => {
    // Retrying it burns the same gas again, and blaming the URL fails the indexer over for nothing.
    expect(classifyRpcError(providerError(code, message), "eth_call")).toBe("revert");
  });
});

describe("suggestedRange", () => {
  test("behavior: reads the range a provider suggests", () => {
    const infura = "query returned more than 10000 results. Try with this block range [0x10, 0x2F].";
    expect(suggestedRange(providerError(-32005, infura))).toBe(32);
    expect(suggestedRange(providerError(-32000, "exceed maximum block range: 5000"))).toBe(5000);
    expect(suggestedRange(providerError(-32000, "max range: 1,000"))).toBe(1000);
    expect(suggestedRange(providerError(-32000, "block range too large"))).toBeUndefined();
  });
});
