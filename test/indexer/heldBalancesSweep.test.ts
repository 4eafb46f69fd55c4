import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import Database from "better-sqlite3";
import postgres from "postgres";
import { type Address, createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { createPostgresStore } from "../../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { chainHead, sendV3Swap, startTestDevnet } from "../support/devnet.js";
import { PG_URL, pgAvailable } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

// The real path: anvil's V3 pools -> indexer -> a store whose V3 rows lost their balances, as a
// store written before schema version 9 holds them (NULL balance0/balance1) -> a restarted
// indexer. The first range after the restart reads the balances of every such pool, the one with
// an event in it (a V3 swap makes the range) and those without, and records them: each pool then holds
// what balanceOf says at the indexed block, and a further restart reads them back from the store.
const silent = { info() {}, warn() {}, error() {} };
const balanceOfAbi = parseAbi(["function balanceOf(address) view returns (uint256)"]);

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 41 });
  chain = devnet.chains[0]!;
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

/** A store that outlives its handle (reopened after a restart) and takes one raw statement. */
interface ReopenableStore {
  name: string;
  open(): Promise<Store>;
  forgetBalances(): Promise<void>;
  cleanup(): Promise<void>;
}

function reopenableStores(): ReopenableStore[] {
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-sweep-"));
  const path = join(dir, "store.db");
  const stores: ReopenableStore[] = [
    {
      name: "sqlite",
      async open() {
        const store = createSqliteStore({ path });
        await store.migrate();
        return store;
      },
      async forgetBalances() {
        const db = new Database(path);
        db.prepare("UPDATE v3_prices SET balance0 = NULL, balance1 = NULL").run();
        db.close();
      },
      async cleanup() {
        rmSync(dir, { recursive: true, force: true });
      },
    },
  ];
  if (pgAvailable) {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    const raw = async (text: string) => {
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      await sql.unsafe(text);
      await sql.end({ timeout: 1 });
    };
    stores.push({
      name: "postgres",
      async open() {
        const store = createPostgresStore({ url: PG_URL, schema });
        await store.migrate();
        return store;
      },
      forgetBalances: () => raw(`UPDATE ${schema}.v3_prices SET balance0 = NULL, balance1 = NULL`),
      cleanup: () => raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
    });
  }
  return stores;
}

describe.each(reopenableStores())("V3 balances unknown before schema version 9, on $name", (backend) => {
  let store: Store | undefined;
  let indexing: Indexing | undefined;

  afterAll(async () => {
    await indexing?.stop();
    await store?.close();
    await backend.cleanup();
  });

  async function start(): Promise<Indexing> {
    store = await backend.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    indexing.start();
    const head = await chainHead(chain.rpcUrl);
    await waitUntilIndexed(indexing.views, config.name, {
      to: head,
      also: () => indexing!.views.poolsBlock(config.name) === head,
    });
    return indexing;
  }

  async function stop(): Promise<void> {
    await indexing?.stop();
    await store?.close();
    indexing = undefined;
    store = undefined;
  }

  const v3Pools = (running: Indexing) =>
    running.views
      .getPoolIndex(config.name)
      .all()
      .filter((pool) => pool.v3State !== undefined);

  test("behavior: the first range after a restart reads every unknown V3 pool's balances, with or without an event in it, and keeps them", async () => {
    await start();
    await stop();
    await backend.forgetBalances();

    // Restarted on the store as an older release left it: the V3 pools' balances are unknown.
    let running = await start();
    const pools = v3Pools(running);
    expect(pools.length).toBeGreaterThan(1);
    for (const pool of pools) expect(pool.v3State!.balances, pool.address).toBeUndefined();

    // A swap through one V3 pool makes the next range: that pool has an event in it (its balances
    // are read as it is met), the others none (the sweep reads theirs).
    const swapped = chain.v3!.pools[0]!;
    await sendV3Swap(chain, { pool: swapped.address, tokenIn: swapped.token0, amountIn: 10n ** 15n });
    const head = await chainHead(chain.rpcUrl);
    await waitUntilIndexed(running.views, config.name, { to: head, ready: false, timeoutMs: 60_000 });
    await waitFor(() => v3Pools(running).every((pool) => pool.v3State!.balances !== undefined), 60_000);

    const client = createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });
    const onChain = async (token: Address, pool: Address) =>
      client.readContract({
        address: token,
        abi: balanceOfAbi,
        functionName: "balanceOf",
        args: [pool],
        blockNumber: head,
      });
    const expectHeld = async (current: Indexing) => {
      for (const pool of v3Pools(current)) {
        expect(pool.v3State!.balances, pool.address).toEqual({
          balance0: await onChain(pool.token0, pool.address),
          balance1: await onChain(pool.token1, pool.address),
        });
      }
    };
    await expectHeld(running);

    // Recorded by the range's commit: a further restart reads them back from the store.
    await stop();
    running = await start();
    await expectHeld(running);
  });
});
