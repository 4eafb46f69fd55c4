import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetFarmAbi, swapEvent, wrappedNativeAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { BLOCK_MIXES } from "@swapgraph/devnet/presets/devnetProfiles.js";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { type Address, createPublicClient, type Hex, http, parseEventLogs, type RpcLog } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

let issue: Devnet;
let bsc: Devnet;
const dirs: string[] = [];

function clientOf(chain: DevnetChainInfo) {
  return createPublicClient({ cacheTime: 0, transport: http(chain.rpcUrl, { batch: true, retryCount: 0 }) });
}

/** Every history block with its transactions and receipts. */
async function historyBlocks(chain: DevnetChainInfo) {
  const client = clientOf(chain);
  const out = [];
  for (let n = chain.history.fromBlock; n <= chain.history.toBlock; n++) {
    const [block, receipts] = await Promise.all([
      client.getBlock({ blockNumber: n, includeTransactions: true }),
      client.request({ method: "eth_getBlockReceipts", params: [`0x${n.toString(16)}`] }) as Promise<
        { status: Hex; logs: RpcLog[] }[]
      >,
    ]);
    out.push({ block, receipts });
  }
  return out;
}

beforeAll(async () => {
  const start = (blockMix: "issue17" | "bsc", blocks: number) => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-busy-"));
    dirs.push(dir);
    return startDevnet({
      profile: "bsc-shaped",
      blockMix,
      blocks,
      traders: 60,
      networks: ["bsc"],
      liveIntervalMs: 0,
      dataDir: dir,
    });
  };
  issue = await start("issue17", 6);
  bsc = await start("bsc", 12);
});

afterAll(async () => {
  await issue?.stop();
  await bsc?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("startDevnet profile bsc-shaped", () => {
  test("behavior: mix issue17 mines exactly 20 configured-DEX trades, 20 foreign-fork swaps and 100 native transfers a block", async () => {
    const chain = issue.chains[0]!;
    const busy = chain.busy!;
    const routers = new Set(chain.dexes.map((d) => d.router));
    const foreignPools = new Set(busy.foreign.pools);
    expect(busy.foreign.pools.length).toBeGreaterThanOrEqual(40);
    expect(chain.history.blocks).toBe(6);
    const blocks = await historyBlocks(chain);
    expect(blocks).toHaveLength(6);
    for (const { block, receipts } of blocks) {
      const txs = block.transactions;
      const toRouter = txs.filter((tx) => tx.to !== null && routers.has(tx.to.toLowerCase() as Address));
      const toFork = txs.filter((tx) => tx.to?.toLowerCase() === busy.foreign.router);
      const plain = txs.filter((tx) => tx.input === "0x" && tx.value > 0n);
      expect([txs.length, toRouter.length, toFork.length, plain.length]).toEqual([140, 20, 20, 100]);
      // Every transaction succeeded; every foreign swap hit a pool of the fork.
      expect(receipts.every((r) => r.status === "0x1")).toBe(true);
      const swaps = parseEventLogs({ abi: [swapEvent], logs: receipts.flatMap((r) => r.logs) });
      expect(swaps.filter((s) => foreignPools.has(s.address.toLowerCase() as Address))).toHaveLength(20);
    }
    // 3 s apart, the last one at the history's end.
    const times = blocks.map(({ block }) => Number(block.timestamp));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([3, 3, 3, 3, 3]);
    expect(chain.history.trades).toBe(120);
    expect(busy.summary).toMatchObject({
      foreignSwaps: 120,
      nativeTransfers: 600,
      approvals: 0,
      aggregatorTxs: 0,
    });
  });

  test("behavior: mix bsc fills each block with ~165 transactions of every kind, 20-odd of them configured-DEX trades", async () => {
    const chain = bsc.chains[0]!;
    const busy = chain.busy!;
    const blocks = await historyBlocks(chain);
    const counts = blocks.map(({ block }) => block.transactions.length);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(110);
    expect(Math.max(...counts)).toBeLessThanOrEqual(260);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(mean).toBeGreaterThan(140);
    expect(mean).toBeLessThan(220);
    const all = blocks.flatMap(({ receipts }) => receipts);
    expect(all.every((r) => r.status === "0x1")).toBe(true);
    const logs = all.flatMap((r) => r.logs);
    // Aggregator routes, another protocol's logs, wraps and unwraps, foreign-fork swaps.
    const txs = blocks.flatMap(({ block }) => block.transactions);
    expect(txs.filter((tx) => tx.to?.toLowerCase() === busy.aggregator).length).toBe(
      busy.summary.aggregatorTxs,
    );
    expect(busy.summary.aggregatorTxs).toBeGreaterThan(0);
    const farmLogs = parseEventLogs({
      abi: devnetFarmAbi,
      logs: logs.filter((l) => l.address.toLowerCase() === busy.farm),
    });
    expect(farmLogs.length).toBe(busy.summary.protocolLogs);
    const wraps = parseEventLogs({
      abi: wrappedNativeAbi,
      logs: logs.filter((l) => l.address.toLowerCase() === chain.wrapped),
    });
    expect(wraps.length).toBeGreaterThan(busy.summary.wraps);
    const foreignPools = new Set(busy.foreign.pools);
    const swaps = parseEventLogs({ abi: [swapEvent], logs });
    const foreign = swaps.filter((s) => foreignPools.has(s.address.toLowerCase() as Address));
    expect(foreign.length).toBe(busy.summary.foreignSwaps);
    expect(new Set(foreign.map((s) => s.address)).size).toBeGreaterThan(25);
    // Configured-DEX swaps: the traders' trades (multi-hop ones several) and the arbitrage.
    expect(swaps.length - foreign.length).toBeGreaterThanOrEqual(
      chain.history.trades + chain.history.arbitrageTrades,
    );
    expect(chain.history.trades / blocks.length).toBeGreaterThan(BLOCK_MIXES.bsc.trades * 0.7);
    expect(chain.history.trades / blocks.length).toBeLessThan(BLOCK_MIXES.bsc.trades * 1.3);
  });
});
