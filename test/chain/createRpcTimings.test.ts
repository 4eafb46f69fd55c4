import { describe, expect, test } from "vitest";
import { createRpcTimings, PRIOR_MS_PER_BYTE } from "../../src/chain/createRpcTimings.js";

describe("createRpcTimings", () => {
  test("behavior: no sample until a few small answers gave the round trip; the throughput is the prior until a large one", () => {
    const timings = createRpcTimings(true);
    timings.record(["eth_blockNumber"], 40, 60);
    timings.record(["eth_blockNumber"], 60, 60);
    expect(timings.sample()).toBeUndefined();
    timings.record(["eth_getBlockByNumber"], 50, 1_000);
    const first = timings.sample()!;
    expect(first.latencyMs).toBeCloseTo(50, 0);
    expect(first.msPerByte).toBe(PRIOR_MS_PER_BYTE);
    expect(first.throughputMeasured).toBe(false);
    expect(first.batched).toBe(true);
    // 100 KB in 150 ms: 100 ms beyond the round trip, 1 ms per KB.
    timings.record(["eth_getBlockByNumber+transactions"], 150, 100_000);
    const second = timings.sample()!;
    expect(second.msPerByte).toBeCloseTo(1 / 1_000, 6);
    expect(second.throughputMeasured).toBe(true);
  });

  test("behavior: answer sizes are kept per call, from requests of one method only", () => {
    const timings = createRpcTimings(false);
    for (let i = 0; i < 3; i++) timings.record(["eth_blockNumber"], 1, 50);
    timings.record(Array(10).fill("eth_getTransactionByHash"), 5, 6_000);
    timings.record(["eth_getTransactionByHash", "eth_getBlockByNumber"], 5, 2_000);
    const sample = timings.sample()!;
    expect(sample.answerBytes.eth_getTransactionByHash).toBe(600);
    expect(sample.answerBytes.eth_getBlockByNumber).toBeUndefined();
    // A running average: one larger answer moves it a tenth of the way.
    timings.record(["eth_getTransactionByHash"], 1, 1_600);
    expect(timings.sample()!.answerBytes.eth_getTransactionByHash).toBeCloseTo(700, 6);
  });

  test("behavior: memory stays constant: thousands of requests, one running figure each", () => {
    const timings = createRpcTimings(true);
    for (let i = 0; i < 10_000; i++) timings.record([`m_${i % 100}`], 2, 100);
    expect(Object.keys(timings.sample()!.answerBytes).length).toBeLessThanOrEqual(32);
    expect(timings.sample()!.latencyMs).toBeCloseTo(2, 6);
  });
});
