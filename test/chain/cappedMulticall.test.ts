import { createChainWriter } from "@swapgraph/devnet/anvil/createChainWriter.js";
import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import {
  deployHostileTokens,
  type HostileTokenAddresses,
} from "@swapgraph/devnet/cases/deployHostileTokens.js";
import { readArtifact } from "@swapgraph/devnet/deploy/readArtifact.js";
import { type Address, encodeFunctionData, type Hex, size } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { erc20Abi } from "../../src/chain/abis.js";
import { cappedMulticall } from "../../src/chain/cappedMulticall.js";
import { createRpcClient, type RpcClient } from "../../src/chain/createRpcClient.js";
import type { CappedCall } from "../../src/chain/decodeCappedMulticall.js";
import { RpcError } from "../../src/errors.js";
import { type FaultProxy, startFaultProxy } from "./faultProxy.js";

const CHAIN_ID = 31337;
const GAS = 150_000n;
let anvil: Anvil;
let proxy: FaultProxy;
let client: RpcClient;
let hostile: HostileTokenAddresses;
let deployedAt: bigint;

const NAME = encodeFunctionData({ abi: erc20Abi, functionName: "name" });
const DECIMALS = encodeFunctionData({ abi: erc20Abi, functionName: "decimals" });

function call(to: Address, data: Hex, maxReturnBytes = 1088): CappedCall {
  return { to, data, gas: GAS, maxReturnBytes };
}

const ethCalls = () => proxy.seen.filter((r) => r.method === "eth_call");

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  proxy = await startFaultProxy(anvil.rpcUrl);
  client = createRpcClient({ urls: [proxy.url], chainId: CHAIN_ID, name: "eth", retryDelayMs: 10 });
  const writer = createChainWriter(anvil.rpcUrl);
  const [deployer] = await writer.client.request({ method: "eth_accounts", params: [] });
  const deployed = await deployHostileTokens(writer, {
    bytecode: readArtifact("HostileToken").bytecode,
    deployer: deployer!.toLowerCase() as Address,
  });
  await writer.mine(Math.floor(Date.now() / 1000));
  await writer.assertSucceeded(deployed.hashes);
  deployedAt = await client.getBlockNumber();
  hostile = deployed.tokens;
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

beforeEach(() => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
});

describe("cappedMulticall on a real chain", () => {
  test("behavior: one eth_call without `to` runs every call; a 65,600-byte answer arrives cut to its cap, with its full size", async () => {
    const results = await cappedMulticall(client, [
      call(hostile.long, NAME),
      call(hostile.dirty, NAME),
      call(hostile.long, DECIMALS, 32),
    ]);
    expect(ethCalls()).toHaveLength(1);
    expect(ethCalls()[0]!.params[0]).not.toHaveProperty("to");
    const [long, dirty, decimals] = results;
    expect(long).toMatchObject({ ok: true, size: 65_600 });
    expect(long?.ok && size(long.data)).toBe(1088);
    expect(dirty).toMatchObject({ ok: true, size: 160 });
    expect(decimals).toEqual({ ok: true, data: `0x${"12".padStart(64, "0")}`, size: 32 });
  });

  test("behavior: calls that burn their gas, revert or answer megabytes fail alone, cheaply; the others still answer", async () => {
    const started = performance.now();
    const results = await cappedMulticall(client, [
      call(hostile.gasBurner, DECIMALS, 32),
      call(hostile.revertBurner, DECIMALS, 32),
      call(hostile.huge, NAME),
      call(hostile.wideDecimals, DECIMALS, 32),
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(results).toEqual([
      { ok: false },
      { ok: false },
      { ok: false },
      { ok: true, data: `0x${"ff".padStart(64, "0")}`, size: 32 },
    ]);
    expect(ethCalls()).toHaveLength(1);
  });

  test("behavior: an address without code answers nothing; at a block, the state of that block is read", async () => {
    const codeless: Address = "0x00000000000000000000000000000000000c0de0";
    expect(await cappedMulticall(client, [call(codeless, DECIMALS, 32)])).toEqual([
      { ok: true, data: "0x", size: 0 },
    ]);
    // Before the tokens were deployed.
    const before = await cappedMulticall(client, [call(hostile.wideDecimals, DECIMALS, 32)], {
      blockNumber: deployedAt - 1n,
    });
    expect(before).toEqual([{ ok: true, data: "0x", size: 0 }]);
    expect(ethCalls().map((r) => r.params[1])).toEqual(["latest", `0x${(deployedAt - 1n).toString(16)}`]);
  });

  test("behavior: calls whose answers could pass the 24,576 bytes a creation may return are split, results in order", async () => {
    // 20 answers of up to 1,088 bytes and 10 of 32 (1,248 and 192 bytes encoded): two eth_calls.
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 2 ? call(hostile.wideDecimals, DECIMALS, 32) : call(hostile.long, NAME),
    );
    const results = await cappedMulticall(client, calls);
    expect(ethCalls()).toHaveLength(2);
    // 19 full answers, 23,776 bytes: just under the limit, one eth_call, every answer there.
    proxy.seen.length = 0;
    const full = await cappedMulticall(client, Array(19).fill(call(hostile.long, NAME)));
    expect(ethCalls()).toHaveLength(1);
    expect(full.map((r) => r.ok && size(r.data))).toEqual(Array(19).fill(1088));
    expect(results.map((r) => r.ok && r.size)).toEqual(
      Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? 32 : 65_600)),
    );
  });

  test("error: a failure of the reader itself is an RpcError, not a failed call, and is not retried", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_call",
      fault: { kind: "rpcError", code: 3, message: "execution reverted" },
    });
    const error = await cappedMulticall(client, [call(hostile.long, NAME)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).message).toMatchInlineSnapshot(
      `"A deployless read of 1 calls at latest failed."`,
    );
    expect(ethCalls()).toHaveLength(1);
  });

  test("error: a chain that cannot be reached is an RpcError", async () => {
    proxy.rules.push({ match: () => true, fault: { kind: "status", status: 502 } });
    const down = createRpcClient({ urls: [proxy.url], chainId: CHAIN_ID, retryCount: 1, retryDelayMs: 5 });
    await expect(cappedMulticall(down, [call(hostile.long, NAME)])).rejects.toBeInstanceOf(RpcError);
  });
});
