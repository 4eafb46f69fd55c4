import { readFileSync } from "node:fs";
import { createChainWriter } from "@swapgraph/devnet/anvil/createChainWriter.js";
import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import {
  deployHostileTokens,
  type HostileTokenAddresses,
} from "@swapgraph/devnet/cases/deployHostileTokens.js";
import { readArtifact } from "@swapgraph/devnet/deploy/readArtifact.js";
import { type Address, decodeDeployData, type Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  MAX_NAME_LENGTH,
  MAX_SYMBOL_LENGTH,
  METADATA_GAS,
  TEXT_ANSWER_BYTES,
} from "../../src/chain/buildTokenMetadataRead.js";
import { cappedMulticallAbi } from "../../src/chain/cappedMulticall.js";
import { createRpcClient, type RpcClient } from "../../src/chain/createRpcClient.js";
import { readTokenMetadata } from "../../src/chain/readTokenMetadata.js";
import { InvalidTokenMetadataError, NotErc20Error } from "../../src/errors.js";
import { type FaultProxy, startFaultProxy } from "./faultProxy.js";

const CHAIN_ID = 31337;
let anvil: Anvil;
let first: FaultProxy;
let second: FaultProxy;
let client: RpcClient;
let hostile: HostileTokenAddresses;
const warnings: string[] = [];

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  first = await startFaultProxy(anvil.rpcUrl);
  second = await startFaultProxy(anvil.rpcUrl);
  // Two URLs: a read the client blamed on the first would send the next call to the second.
  client = createRpcClient({
    urls: [first.url, second.url],
    chainId: CHAIN_ID,
    name: "eth",
    retryDelayMs: 10,
    log: { warn: (_, message) => warnings.push(message) },
  });
  const writer = createChainWriter(anvil.rpcUrl);
  const [deployer] = await writer.client.request({ method: "eth_accounts", params: [] });
  const deployed = await deployHostileTokens(writer, {
    bytecode: readArtifact("HostileToken").bytecode,
    deployer: deployer!.toLowerCase() as Address,
  });
  await writer.mine(Math.floor(Date.now() / 1000));
  await writer.assertSucceeded(deployed.hashes);
  hostile = deployed.tokens;
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await anvil?.stop();
});

beforeEach(() => {
  for (const proxy of [first, second]) proxy.seen.length = 0;
  warnings.length = 0;
});

/** Reads metadata, timing it and counting the eth_calls it made. */
async function measured(address: Address) {
  first.seen.length = 0;
  const started = performance.now();
  const outcome = await readTokenMetadata(client, address).then(
    (token) => ({ token, error: undefined }),
    (error: unknown) => ({ token: undefined, error }),
  );
  return {
    ...outcome,
    ms: performance.now() - started,
    calls: first.seen.filter((r) => r.method === "eth_call"),
  };
}

const reader = JSON.parse(
  readFileSync(new URL("../../src/chain/artifacts/CappedMulticall.json", import.meta.url), "utf8"),
) as { bytecode: Hex };

/** The calls a deployless read ran, decoded from its eth_call's creation code. */
function subCalls(request: { params: unknown[] }) {
  const { data } = request.params[0] as { data: Hex };
  const { args } = decodeDeployData({ abi: cappedMulticallAbi, bytecode: reader.bytecode, data });
  return args[0].map((call) => ({ ...call, target: call.target.toLowerCase() }));
}

/** Every call went to the first URL, nothing was retried elsewhere, and no URL was blamed. */
function expectUrlsHealthy(): void {
  expect(second.seen).toEqual([]);
  expect(warnings).toEqual([]);
}

describe("readTokenMetadata of hostile tokens", () => {
  test("behavior: one deployless eth_call reads decimals, name and symbol, each with the gas cap and an answer cap", async () => {
    const { calls } = await measured(hostile.long);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.params[0]).not.toHaveProperty("to");
    // The eth_call's own limit: the three caps and the reader's overhead, not the node's gas cap.
    expect(BigInt((calls[0]!.params[0] as { gas: Hex }).gas)).toBeLessThan(2_000_000n);
    expect(subCalls(calls[0]!)).toEqual(
      [
        ["0x313ce567", 32n],
        ["0x06fdde03", BigInt(TEXT_ANSWER_BYTES)],
        ["0x95d89b41", BigInt(TEXT_ANSWER_BYTES)],
      ].map(([data, maxReturnBytes]) => ({ target: hostile.long, gas: METADATA_GAS, maxReturnBytes, data })),
    );
  });

  test("behavior: a 1,000,000-byte name and symbol run out of the gas cap: empty text, one cheap call", async () => {
    const { token, calls, ms } = await measured(hostile.huge);
    expect(token).toEqual({ address: hostile.huge, name: "", symbol: "", decimals: 18 });
    expect(calls).toHaveLength(1);
    expect(ms).toBeLessThan(1_000);
    expectUrlsHealthy();
  });

  test("behavior: a 65,536-byte name and symbol are cut to their caps with an ellipsis", async () => {
    const { token } = await measured(hostile.long);
    expect(token).toEqual({
      address: hostile.long,
      name: `${"Long".repeat(16).slice(0, MAX_NAME_LENGTH - 1)}…`,
      symbol: `${"Long".repeat(8).slice(0, MAX_SYMBOL_LENGTH - 1)}…`,
      decimals: 18,
    });
  });

  test("behavior: control characters, invisible characters and markup are removed, letters kept", async () => {
    const { token } = await measured(hostile.dirty);
    expect(token).toEqual({
      address: hostile.dirty,
      name: "Evil <b>Pooh's</b> <img src=x onerror=__x=1> Tøkén 币 coin",
      symbol: "[31m<img src=x onerror=__x=1>",
      decimals: 18,
    });
  });

  test("error: decimals() 255 is refused with a short 400 after one call", async () => {
    const { error, calls } = await measured(hostile.wideDecimals);
    expect(error).toBeInstanceOf(InvalidTokenMetadataError);
    expect((error as InvalidTokenMetadataError).status).toBe(400);
    expect((error as Error).message).toBe(
      `Token ${hostile.wideDecimals} on eth is not supported: its decimals() is 255, expected 0 to 36.`,
    );
    expect(calls).toHaveLength(1);
  });

  test("error: a decimals() that burns all gas is no ERC-20: one capped call, no retry, URLs stay healthy", async () => {
    const { error, calls, ms } = await measured(hostile.gasBurner);
    expect(error).toBeInstanceOf(NotErc20Error);
    expect((error as NotErc20Error).details).toBe("decimals() reverted or ran out of its 150000 gas");
    expect(calls).toHaveLength(1);
    expect(ms).toBeLessThan(1_000);
    expectUrlsHealthy();
    // The next read still goes to the first URL.
    expect((await measured(hostile.long)).calls).toHaveLength(1);
    expectUrlsHealthy();
  });

  test("error: a decimals() that burns its gas and reverts is no ERC-20 after one call", async () => {
    const { error, calls, ms } = await measured(hostile.revertBurner);
    expect(error).toBeInstanceOf(NotErc20Error);
    expect(calls).toHaveLength(1);
    expect(ms).toBeLessThan(1_000);
    expectUrlsHealthy();
  });

  test("error: an address without code is no ERC-20 after one call", async () => {
    const { error, calls } = await measured("0x00000000000000000000000000000000000c0de0");
    expect(error).toBeInstanceOf(NotErc20Error);
    expect((error as NotErc20Error).details).toBe(
      "decimals() returned nothing: no contract code or no decimals()",
    );
    expect(calls).toHaveLength(1);
  });
});
