import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import type { ProviderFaults } from "@swapgraph/devnet/emulator/providerFaults.js";
import { type Address, createPublicClient, http, numberToHex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  classifyRpcError,
  isBatchTooLarge,
  isRateLimited,
  suggestedBatchSize,
  suggestedRange,
} from "../../src/chain/classifyRpcError.js";
import { createLogFetcher } from "../../src/chain/createLogFetcher.js";
import { createRpcClient } from "../../src/chain/createRpcClient.js";
import { retryAfterMs } from "../../src/chain/retryAfterMs.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import { startTransferChain, type TransferChain } from "../support/startTransferChain.js";

let chain: TransferChain;
let emulator: ProviderEmulator;

beforeAll(async () => {
  chain = await startTransferChain(30);
  emulator = await createProviderEmulator({ upstream: chain.anvil.rpcUrl });
});

afterAll(async () => {
  await emulator?.close();
  await chain?.anvil.stop();
});

beforeEach(() => {
  emulator.setFaults({});
  emulator.reset();
});

/** The error viem raises for one call of `method` through the emulator under `faults`. */
async function errorOf(faults: ProviderFaults, method: string, params: unknown[], batch = false) {
  emulator.setFaults(faults);
  const client = createPublicClient({ transport: http(emulator.url, { retryCount: 0, batch }) });
  try {
    await client.request({ method: method as never, params: params as never });
  } catch (error) {
    return error;
  }
  throw new Error(`${method} did not fail under ${JSON.stringify(faults)}`);
}

/** An address no one uses (balance 0). */
const accountOf = (i: number): Address => `0x${(0xdead0000 + i).toString(16).padStart(40, "0")}`;
const count = (name: "rpc_log_range_shrinks" | "rpc_batch_splits", network: string) =>
  readEventCounts(name).find((c) => c.labels.network === network)?.value ?? 0;
const rateLimited = (network: string) =>
  readEventCounts("rpc_rate_limited")
    .filter((c) => c.labels.network === network)
    .reduce((sum, c) => sum + c.value, 0);

describe("what the client makes of hosted providers' answers (as the emulator sends them)", () => {
  const logs = () => [{ fromBlock: numberToHex(chain.firstBlock), toBlock: numberToHex(chain.head) }];

  test.each([
    ["quicknode", 10],
    ["infura", 10],
    ["alchemy", 10],
  ] as const)(
    "behavior: a %s block-range refusal is a range error naming %i blocks",
    async (style, blocks) => {
      const error = await errorOf({ logRange: { blocks, style } }, "eth_getLogs", logs());
      expect(classifyRpcError(error, "eth_getLogs")).toBe("range");
      expect(suggestedRange(error)).toBe(blocks);
    },
  );

  test.each(["infura", "alchemy"] as const)(
    "behavior: a %s result-count refusal is a range error with a range that fits",
    async (style) => {
      const error = await errorOf({ logCount: { logs: 10, style, freeBlocks: 5 } }, "eth_getLogs", logs());
      expect(classifyRpcError(error, "eth_getLogs")).toBe("range");
      const hint = suggestedRange(error)!;
      expect(hint).toBeGreaterThan(0);
      expect(hint).toBeLessThan(Number(chain.head - chain.firstBlock + 1n));
    },
  );

  test("behavior: a range past a lagging node's head is transient (shrinking cannot help), not a range error", async () => {
    const error = await errorOf({ lag: { blocks: 5, beyondHead: "error" } }, "eth_getLogs", logs());
    expect(classifyRpcError(error, "eth_getLogs")).toBe("transient");
  });

  test("behavior: batch refusals are recognised, with the size a provider names", async () => {
    for (const style of ["geth", "nodereal"] as const) {
      emulator.setFaults({ batchSize: { calls: 5, style } });
      // viem hands each call of a refused batch the batch's error.
      const client = createPublicClient({ transport: http(emulator.url, { retryCount: 0, batch: true }) });
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => client.getBalance({ address: accountOf(i) })),
      );
      const error = (results[0] as PromiseRejectedResult).reason;
      expect(results.every((r) => r.status === "rejected")).toBe(true);
      expect(isBatchTooLarge(error)).toBe(true);
      expect(classifyRpcError(error, "eth_getBalance")).toBe("transient");
      expect(suggestedBatchSize(error)).toBe(style === "geth" ? undefined : 5);
    }
  });

  test.each(["alchemy", "infura"] as const)(
    "behavior: a %s rate limit is transient, rate-limited, with its Retry-After",
    async (style) => {
      emulator.setFaults({ rateLimit: { callsPerSecond: 1, burst: 1, retryAfterSeconds: 3, style } });
      const client = createPublicClient({ transport: http(emulator.url, { retryCount: 0 }) });
      await client.getChainId();
      const error = await client.getChainId().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(classifyRpcError(error, "eth_chainId")).toBe("transient");
      expect(isRateLimited(error)).toBe(true);
      expect(retryAfterMs(error)).toBe(3000);
    },
  );
});

describe("the client under the provider's limits, counted for /metrics", () => {
  test("behavior: a batch refused for its size is sent again in smaller batches: every call answered", async () => {
    emulator.setFaults({ batchSize: { calls: 30 } });
    const client = createRpcClient({ urls: [emulator.url], chainId: 31337, name: "batchnet", batch: true });
    // Distinct calls (viem sends identical ones once).
    const balances = () =>
      Promise.all(Array.from({ length: 100 }, (_, i) => client.getBalance({ address: accountOf(i) })));
    expect(await balances()).toEqual(Array.from({ length: 100 }, () => 0n));
    const usage = emulator.usage();
    // 100 refused at once, then batches of 50 (refused) and 25 (answered).
    expect(usage.refused).toBe(100 + 100);
    expect(usage.byMethod.get("eth_getBalance")!.calls).toBe(100);
    expect(count("rpc_batch_splits", "batchnet")).toBe(2);
    // The size it learned stays: the next 100 calls go out in batches of 25 at once.
    emulator.reset();
    await balances();
    expect(emulator.usage()).toMatchObject({ refused: 0, httpRequests: 4 });
  });

  test("behavior: range refusals shrink the log range and are counted per network", async () => {
    emulator.setFaults({ logRange: { blocks: 7, style: "infura" } });
    const client = createRpcClient({ urls: [emulator.url], chainId: 31337, name: "rangenet" });
    // No growing back within this short span: one refusal, one shrink.
    const fetcher = createLogFetcher({ client, address: chain.token, maxRange: 1000, growAfter: 100 });
    let logs = 0;
    for await (const chunk of fetcher.chunks(chain.firstBlock, chain.head)) logs += chunk.logs.length;
    expect(logs).toBe([...chain.txs.values()].reduce((n, hashes) => n + hashes.length, 0));
    expect(fetcher.range).toBe(7);
    expect(count("rpc_log_range_shrinks", "rangenet")).toBe(1);
    expect(emulator.usage().faults.logRange).toBe(1);
  });

  test("behavior: 429s are waited out and counted per network", async () => {
    emulator.setFaults({ rateLimit: { callsPerSecond: 20, burst: 2, retryAfterSeconds: 1 } });
    const client = createRpcClient({
      urls: [emulator.url],
      chainId: 31337,
      name: "ratenet",
      retryDelayMs: 10,
    });
    const balances = await Promise.all(
      Array.from({ length: 4 }, (_, i) => client.getBalance({ address: accountOf(i) })),
    );
    expect(balances).toEqual([0n, 0n, 0n, 0n]);
    expect(emulator.usage().faults.rateLimit).toBeGreaterThan(0);
    expect(rateLimited("ratenet")).toBe(emulator.usage().faults.rateLimit);
  });
});
