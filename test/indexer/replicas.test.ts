import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import postgres from "postgres";
import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { createPostgresStore } from "../../src/store/postgres/createPostgresStore.js";
import type { Store } from "../../src/store/types.js";
import { sendSwap } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { PG_URL, pgAvailable } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";

const silent = { info() {}, warn() {}, error() {} };
const schema = `t_${randomBytes(6).toString("hex")}`;

let devnet: Devnet;
let dataDir: string;
let config: NetworkConfig;
/** bsc, eth and polygon: every process runs all three (the writer lock is per network). */
let configs: NetworkConfig[];
const stores: Store[] = [];
const processes: Indexing[] = [];

function openStore(): Store {
  const store = createPostgresStore({ url: PG_URL, schema });
  stores.push(store);
  return store;
}

/** Every pool's reserves as one process's live views hold them. */
function reservesOf(indexing: Indexing): Map<string, [bigint, bigint]> {
  return new Map(
    [...indexing.views.getPoolIndex(config.name).all()].map((p) => [p.address, [p.reserve0, p.reserve1]]),
  );
}

/** The bsc trades a process serves, up to the block its views say is indexed, read page by page. */
async function hashesOf(indexing: Indexing): Promise<Set<string>> {
  const upTo = indexing.views.poolsBlock(config.name);
  const hashes = new Set<string>();
  if (upTo === undefined) return hashes;
  let after: { blockNumber: bigint; txIndex: number; logIndex: number } | undefined;
  for (;;) {
    const page = await indexing.views.listTrades(config.name, {
      fromTimestamp: 0,
      maxBlock: upTo,
      limit: 500,
      ...(after === undefined ? {} : { after }),
    });
    for (const trade of page) hashes.add(trade.txHash);
    const last = page.at(-1);
    if (last === undefined || page.length < 500) return hashes;
    after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
  }
}

/** True once every network of `indexing` has finished its backfill (its own or the writer's). */
function allReady(indexing: Indexing): boolean {
  return configs.every((cfg) => indexing.views.status(cfg.name).ready);
}

async function swapBlock(count: number): Promise<Hex[]> {
  const chain = devnet.chains[0]!;
  const hashes: Hex[] = [];
  for (let i = 0; i < count; i++) {
    hashes.push(
      await sendSwap(chain, {
        path: ["", "USDT"],
        amountIn: BigInt(i + 1) * 10n ** 16n,
        trader: chain.traders[i % chain.traders.length]!,
        mine: false,
      }),
    );
  }
  await createPublicClient({ transport: http(config.rpcUrls[0]) }).request({
    method: "evm_mine" as never,
    params: [] as never,
  });
  return hashes.map((h) => h.toLowerCase() as Hex);
}

beforeAll(async () => {
  if (!pgAvailable) return;
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-replicas-"));
  devnet = await startDevnet({
    networks: ["bsc", "eth", "polygon"],
    swapsPerNetwork: 150,
    liveIntervalMs: 0,
    dataDir,
    seed: 5,
  });
  configs = devnet.networks.map((network) => ({ ...network, pollIntervalMs: 100 }));
  config = configs.find((network) => network.name === "bsc")!;
});

afterAll(async () => {
  for (const indexing of processes) await indexing.stop();
  for (const store of stores) await store.close();
  if (pgAvailable) {
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await sql.end({ timeout: 1 });
  }
  await devnet?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!pgAvailable)("several processes on one PostgreSQL", () => {
  test("behavior: one writer per network; standbys and API replicas follow it, through reorgs and a failover", async () => {
    const storeA = openStore();
    await storeA.migrate();
    // One process takes all three networks' writer locks at once (they are acquired concurrently).
    const a = createIndexing({ networks: configs, store: storeA, log: silent });
    processes.push(a);
    a.start();
    await waitFor(() => allReady(a) && a.indexers.size === 3, 90_000, "writer ready on every network");
    for (const cfg of configs) {
      expect((await listAllTrades(storeA, cfg.name, 0)).length).toBeGreaterThan(100);
      const days = await a.views.listDailyVolumes(cfg.name, 7, Math.floor(Date.now() / 1000));
      expect(days.reduce((sum, day) => sum + day.tradeCount, 0)).toBeGreaterThan(100);
    }

    const storeB = openStore();
    await storeB.migrate();
    const b = createIndexing({ networks: configs, store: storeB, log: silent, lockRetryMs: 200 });
    const storeC = openStore();
    const c = createIndexing({ networks: configs, store: storeC, log: silent, role: "api" });
    processes.push(b, c);
    b.start();
    c.start();
    await waitFor(() => allReady(b) && allReady(c), 30_000, "followers");
    // B could not take any lock: it follows instead of writing.
    expect(b.indexers.size).toBe(0);
    expect(c.indexers.size).toBe(0);
    expect(await hashesOf(b)).toEqual(await hashesOf(a));
    expect((await hashesOf(c)).size).toBeGreaterThan(100);

    // New blocks reach the followers through the store.
    const fresh = await swapBlock(3);
    await waitFor(
      async () => {
        const [inB, inC] = [await hashesOf(b), await hashesOf(c)];
        return fresh.every((h) => inB.has(h) && inC.has(h));
      },
      20_000,
      "new trades",
    );
    // The pools' reserves follow too (incrementally, by the reserves that changed).
    await waitFor(
      () => c.views.status(config.name).indexedBlock === a.views.status(config.name).indexedBlock,
    );
    expect(reservesOf(c)).toEqual(reservesOf(a));
    expect(reservesOf(b)).toEqual(reservesOf(a));

    // A reorg: the followers drop the orphaned trades and take the canonical ones.
    const client = createPublicClient({ transport: http(config.rpcUrls[0]) });
    const snapshot = (await client.request({
      method: "evm_snapshot" as never,
      params: [] as never,
    })) as string;
    const orphaned = await swapBlock(2);
    await waitFor(
      async () => {
        const inC = await hashesOf(c);
        return orphaned.every((h) => inC.has(h));
      },
      20_000,
      "orphaned trades seen",
    );
    await client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    const canonical = [...(await swapBlock(1)), ...(await swapBlock(1)), ...(await swapBlock(1))];
    for (const follower of [b, c]) {
      await waitFor(
        async () => {
          const seen = await hashesOf(follower);
          return canonical.every((h) => seen.has(h)) && orphaned.every((h) => !seen.has(h));
        },
        20_000,
        "reorg followed",
      );
    }
    expect(await hashesOf(b)).toEqual(await hashesOf(a));

    // Failover: the writer stops (its session and lock end); the standby takes over and indexes on.
    await a.stop();
    await storeA.close();
    await waitFor(() => b.indexers.size === 3, 20_000, "standby takes every lock");
    const after = await swapBlock(2);
    await waitFor(
      async () => {
        const [inB, inC] = [await hashesOf(b), await hashesOf(c)];
        return after.every((h) => inB.has(h) && inC.has(h));
      },
      20_000,
      "indexed by B",
    );
    expect(c.indexers.size).toBe(0);
    const stored = new Set((await listAllTrades(storeB, config.name, 0)).map((t) => t.txHash));
    expect(stored).toEqual(await hashesOf(b));
  });
});
