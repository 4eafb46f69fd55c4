import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { type Address, type Hex, numberToHex, pad, stringToHex, zeroAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { pairAbi } from "../../src/chain/abis.js";
import { buildPairAddressRead } from "../../src/chain/buildPairAddressRead.js";
import { buildPairCheckRead } from "../../src/chain/buildPairCheckRead.js";
import { createRpcClient, type RpcClient } from "../../src/chain/createRpcClient.js";
import { findBlockByTimestamp } from "../../src/chain/findBlockByTimestamp.js";
import { getPairAddress } from "../../src/chain/getPairAddress.js";
import { readPairInfo } from "../../src/chain/readPairInfo.js";
import { readReserves } from "../../src/chain/readReserves.js";
import { readTokenMetadata } from "../../src/chain/readTokenMetadata.js";
import { runBatchedReads } from "../../src/chain/runBatchedReads.js";
import { BadRequestError, RpcError } from "../../src/errors.js";
import { type FaultProxy, startFaultProxy } from "./faultProxy.js";
import { ARTIFACTS, DEPLOYER, deployV2, type V2Fixture } from "./v2Fixture.js";

const CHAIN_ID = 31337;
let anvil: Anvil;
let proxy: FaultProxy;
let v2: V2Fixture;
let client: RpcClient;
let tokenA: Address;
let tokenB: Address;
let pair: Address;
let otherFactory: Address;
let otherPair: Address;
let fakePair: Address;
let mkr: Address;
let blockBeforeSwap: bigint;

const UNISWAP = (factory: Address) => ({ name: "uniswap-v2", factory, feeBps: 30 });

/** Runtime code of a pre-standard token: name() "Maker" and symbol() "MKR" as bytes32, decimals() 18. */
function bytes32TokenCode(): Hex {
  const word = (text: string) => stringToHex(text, { size: 32 }).slice(2);
  const ret = "600052" + "60206000f3"; // MSTORE at 0, RETURN 32 bytes
  const head = (symbolAt: number, decimalsAt: number) =>
    "60003560e01c" + // selector
    "80" +
    "63313ce567" +
    "14" +
    `60${decimalsAt.toString(16).padStart(2, "0")}` +
    "57" + // decimals()
    "80" +
    "6395d89b41" +
    "14" +
    `60${symbolAt.toString(16).padStart(2, "0")}` +
    "57" + // symbol()
    `7f${word("Maker")}${ret}`; // anything else, name() included
  const headLength = head(0, 0).length / 2;
  const symbolAt = headLength;
  const decimalsAt = symbolAt + 1 + 33 + ret.length / 2;
  const code = `${head(symbolAt, decimalsAt)}5b7f${word("MKR")}${ret}5b6012${ret}`;
  return `0x${code}`;
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, mining: "auto" });
  proxy = await startFaultProxy(anvil.rpcUrl);
  client = createRpcClient({ urls: [proxy.url], chainId: CHAIN_ID, name: "eth", retryDelayMs: 10 });
  v2 = await deployV2(anvil.rpcUrl);
  tokenA = await v2.deployToken();
  tokenB = await v2.deployToken();
  await v2.addLiquidity(v2.router, tokenA, tokenB, 10n ** 24n, 3n * 10n ** 24n);
  pair = await v2.pairOf(v2.factory, tokenA, tokenB);
  blockBeforeSwap = await v2.publicClient.getBlockNumber();
  await v2.swap(v2.router, [tokenA, tokenB], 10n ** 21n);

  // A second, unconfigured Uniswap V2 deployment with the same tokens.
  otherFactory = await v2.deploy(ARTIFACTS.factory, [DEPLOYER]);
  const otherRouter = await v2.deploy(ARTIFACTS.router, [otherFactory, v2.weth]);
  await v2.addLiquidity(otherRouter, tokenA, tokenB, 10n ** 20n, 10n ** 20n);
  otherPair = await v2.pairOf(otherFactory, tokenA, tokenB);

  // A copy of the real pair's code whose storage claims the configured factory and the real
  // tokens (slots 5, 6, 7 of UniswapV2Pair), but that the factory never created.
  fakePair = "0x00000000000000000000000000000000000fa4e1";
  const code = await v2.publicClient.getCode({ address: pair });
  await v2.publicClient.request({
    method: "anvil_setCode" as "eth_chainId",
    params: [fakePair, code] as never,
  });
  const [token0, token1] = tokenA < tokenB ? [tokenA, tokenB] : [tokenB, tokenA];
  for (const [slot, value] of [
    [5, v2.factory],
    [6, token0],
    [7, token1],
  ] as const) {
    await v2.publicClient.request({
      method: "anvil_setStorageAt" as "eth_chainId",
      params: [fakePair, numberToHex(slot, { size: 32 }), pad(value, { size: 32 })] as never,
    });
  }

  mkr = "0x000000000000000000000000000000000000a4e1";
  await v2.publicClient.request({
    method: "anvil_setCode" as "eth_chainId",
    params: [mkr, bytes32TokenCode()] as never,
  });
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

beforeEach(() => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
});

describe("readPairInfo", () => {
  test("behavior: accepts a pair of a configured factory", async () => {
    const [token0, token1] = tokenA < tokenB ? [tokenA, tokenB] : [tokenB, tokenA];
    const info = await readPairInfo(client, pair, [UNISWAP(v2.factory)]);
    expect(info).toEqual({
      address: pair,
      dex: "uniswap-v2",
      factory: v2.factory,
      token0,
      token1,
      feeBps: 30,
    });
    // The factory is matched whatever the case of its configured address.
    const upper = `0x${v2.factory.slice(2).toUpperCase()}` as Address;
    expect((await readPairInfo(client, pair, [UNISWAP(upper)]))?.dex).toBe("uniswap-v2");
  });

  test("behavior: rejects a pair of a factory that is not configured", async () => {
    expect(await readPairInfo(client, otherPair, [UNISWAP(v2.factory)])).toBeUndefined();
    const both = [UNISWAP(v2.factory), { name: "other", factory: otherFactory, feeBps: 25 }];
    expect(await readPairInfo(client, otherPair, both)).toMatchObject({ dex: "other", feeBps: 25 });
  });

  test("behavior: rejects a contract whose factory() lies", async () => {
    // The fake does claim the configured factory...
    const claimed = await v2.publicClient.readContract({
      address: fakePair,
      abi: pairAbi,
      functionName: "factory",
    });
    expect(claimed.toLowerCase()).toBe(v2.factory);
    // ...but factory.getPair(token0, token1) names the real pair, not it.
    expect(await readPairInfo(client, fakePair, [UNISWAP(v2.factory)])).toBeUndefined();
  });

  test("behavior: rejects contracts that are no pair, and accounts", async () => {
    expect(await readPairInfo(client, tokenA, [UNISWAP(v2.factory)])).toBeUndefined();
    expect(await readPairInfo(client, DEPLOYER, [UNISWAP(v2.factory)])).toBeUndefined();
  });

  test("error: RPC failure is an RpcError, not a rejection", async () => {
    proxy.rules.push({ match: () => true, fault: { kind: "status", status: 500 } });
    const down = createRpcClient({ urls: [proxy.url], chainId: CHAIN_ID, retryCount: 0 });
    await expect(readPairInfo(down, pair, [UNISWAP(v2.factory)])).rejects.toBeInstanceOf(RpcError);
  });
});

describe("getPairAddress", () => {
  test("behavior: the registered pair in either token order, zero when none", async () => {
    expect(await getPairAddress(client, v2.factory, tokenA, tokenB)).toBe(pair);
    expect(await getPairAddress(client, v2.factory, tokenB, tokenA)).toBe(pair);
    expect(await getPairAddress(client, v2.factory, tokenA, v2.weth)).toBe(zeroAddress);
    expect(await getPairAddress(client, tokenA, tokenA, tokenB)).toBe(zeroAddress);
  });
});

describe("batched pair reads (token lookups)", () => {
  test("behavior: getPair in one eth_call answers as getPairAddress does", async () => {
    const found = await runBatchedReads(client, [
      buildPairAddressRead(v2.factory, tokenA, tokenB),
      buildPairAddressRead(v2.factory, tokenB, tokenA),
      buildPairAddressRead(v2.factory, tokenA, v2.weth),
      buildPairAddressRead(tokenA, tokenA, tokenB),
    ]);
    expect(found).toEqual([pair, pair, zeroAddress, zeroAddress]);
    expect(proxy.seen.filter((r) => r.method === "eth_call")).toHaveLength(1);
  });

  test("behavior: a pair check accepts and refuses as readPairInfo does, with the reserves of its block", async () => {
    const configured = [UNISWAP(v2.factory)];
    const found = { factory: v2.factory, tokenA, tokenB };
    const unconfigured = buildPairCheckRead(otherPair, { ...found, factory: otherFactory }, configured);
    const [genuine, young] = await runBatchedReads(
      client,
      [buildPairCheckRead(pair, found, configured), unconfigured],
      { blockNumber: blockBeforeSwap },
    );
    expect(genuine).toEqual({
      kind: "pair",
      pair: await readPairInfo(client, pair, configured),
      reserves: await readReserves(client, pair, blockBeforeSwap),
    });
    // otherPair did not exist yet at that block: this read cannot tell.
    expect(young).toEqual({ kind: "unknown" });
    const [fake, later] = await runBatchedReads(client, [
      buildPairCheckRead(fakePair, found, configured),
      unconfigured,
    ]);
    expect(fake).toEqual({ kind: "refused" });
    expect(later).toEqual({ kind: "refused" });
  });
});

describe("readTokenMetadata", () => {
  test("behavior: reads name, symbol and decimals", async () => {
    expect(await readTokenMetadata(client, tokenA)).toEqual({
      address: tokenA,
      name: "Test Token",
      symbol: "TT",
      decimals: 18,
    });
  });

  test("behavior: reads bytes32 name and symbol (MKR-style)", async () => {
    expect(await readTokenMetadata(client, mkr)).toEqual({
      address: mkr,
      name: "Maker",
      symbol: "MKR",
      decimals: 18,
    });
  });

  test("error: an address without code is not an ERC-20", async () => {
    const error = await readTokenMetadata(client, DEPLOYER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatchInlineSnapshot(
      `"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 is not an ERC-20 token contract on eth."`,
    );
    expect((error as BadRequestError).status).toBe(400);
  });

  test("error: a contract without decimals() is not an ERC-20", async () => {
    await expect(readTokenMetadata(client, v2.factory)).rejects.toThrow(
      `${v2.factory} is not an ERC-20 token contract on eth.`,
    );
    // A revert is an answer: it is not retried, and name() and symbol() are not asked.
    expect(proxy.seen.filter((r) => r.method === "eth_call").length).toBe(1);
  });

  test("error: RPC failure is an RpcError", async () => {
    proxy.rules.push({ match: () => true, fault: { kind: "status", status: 502 } });
    const down = createRpcClient({ urls: [proxy.url], chainId: CHAIN_ID, retryCount: 1, retryDelayMs: 5 });
    await expect(readTokenMetadata(down, tokenA)).rejects.toBeInstanceOf(RpcError);
  });
});

describe("readReserves", () => {
  test("behavior: reads reserves at a block and at latest", async () => {
    const before = await readReserves(client, pair, blockBeforeSwap);
    const latest = await readReserves(client, pair);
    const [r0, r1] = tokenA < tokenB ? [10n ** 24n, 3n * 10n ** 24n] : [3n * 10n ** 24n, 10n ** 24n];
    expect(before).toEqual({ reserve0: r0, reserve1: r1 });
    expect(latest).not.toEqual(before);
    expect(latest.reserve0 * latest.reserve1).toBeGreaterThan(r0 * r1);
  });

  test("behavior: a pair that did not exist yet at the block has 0/0", async () => {
    expect(await readReserves(client, otherPair, blockBeforeSwap)).toEqual({ reserve0: 0n, reserve1: 0n });
  });

  test("behavior: falls back to latest when the node lacks the historical state", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_call" && r.params[1] !== "latest" && r.params[1] !== undefined,
      fault: {
        kind: "rpcError",
        code: -32000,
        message: "missing trie node 0xabc (path ) state is not available",
      },
    });
    const latest = await readReserves(client, pair);
    expect(await readReserves(client, pair, blockBeforeSwap)).toEqual(latest);
    // Missing state is permanent: one historical attempt, no retries.
    expect(proxy.seen.filter((r) => r.outcome === "rpcError")).toHaveLength(1);
  });
});

describe("findBlockByTimestamp", () => {
  test("behavior: the first block at or after a timestamp", async () => {
    const head = await v2.publicClient.getBlock();
    const base = Number(head.timestamp) + 10_000;
    const mined: bigint[] = [];
    for (const offset of [0, 10, 20, 30]) {
      await v2.publicClient.request({
        method: "evm_mine" as "eth_chainId",
        params: [numberToHex(base + offset)] as never,
      });
      mined.push(await v2.publicClient.getBlockNumber());
    }
    expect(await findBlockByTimestamp(client, base + 10)).toBe(mined[1]);
    expect(await findBlockByTimestamp(client, base + 11)).toBe(mined[2]);
    expect(await findBlockByTimestamp(client, base - 1)).toBe(mined[0]);
    expect(await findBlockByTimestamp(client, base + 30)).toBe(mined[3]);
    expect(await findBlockByTimestamp(client, base + 31)).toBe(mined[3]! + 1n);
    expect(await findBlockByTimestamp(client, 0)).toBe(0n);
  });
});
