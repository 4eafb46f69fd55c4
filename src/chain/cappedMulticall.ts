import { readFileSync } from "node:fs";
import { encodeDeployData, type Hex, parseAbi } from "viem";
import { RpcError } from "../errors.js";
import type { RpcClient } from "./createRpcClient.js";
import { type CappedCall, type CappedCallResult, decodeCappedMulticall } from "./decodeCappedMulticall.js";
import { callRaw } from "./tryReadContract.js";

/**
 * The constructor of src/chain/contracts/CappedMulticall.sol (a test compares it with the artifact).
 * @internal exported for tests, which call the contract with it.
 */
export const cappedMulticallAbi = parseAbi([
  "constructor((address target, uint256 gas, uint256 maxReturnBytes, bytes data)[] calls)",
]);

// The constructor's answer becomes code: EIP-170 refuses more than 24,576 bytes of it, and
// EIP-3860 more than 49,152 bytes of creation code (the calls included).
const MAX_ANSWER_BYTES = 24_576;
const MAX_INPUT_BYTES = 49_152;
// Gas of the eth_call besides the calls' own: intrinsic and creation costs, the loop, the
// 1/64 a CALL keeps back, memory, and 200 gas per byte of code deposited (the answer).
const BASE_GAS = 300_000n;
const GAS_PER_CALL = 20_000n;
const GAS_PER_ANSWER_BYTE = 250n;
const GAS_PER_INPUT_BYTE = 50n;

const ARTIFACT = new URL("./artifacts/CappedMulticall.json", import.meta.url);
let bytecode: Hex | undefined;

// The committed artifact (`npm run contracts`), read once: production never loads solc.
function readerBytecode(): Hex {
  if (bytecode === undefined) {
    const artifact = JSON.parse(readFileSync(ARTIFACT, "utf8")) as { bytecode?: unknown };
    if (typeof artifact.bytecode !== "string" || !/^0x(?:[0-9a-f]{2})+$/.test(artifact.bytecode)) {
      throw new Error(`${ARTIFACT.pathname} has no bytecode: run \`npm run contracts\``);
    }
    bytecode = artifact.bytecode as Hex;
  }
  return bytecode;
}

const words = (bytes: number) => Math.ceil(bytes / 32) * 32;
// Bytes a call adds to the answer (abi.encode of its Result at most) and to the input.
const answerBytes = (call: CappedCall) => 160 + words(call.maxReturnBytes);
const inputBytes = (call: CappedCall) => 192 + words((call.data.length - 2) / 2);

/** Consecutive groups of calls whose answers and inputs fit one creation. */
function split(calls: readonly CappedCall[]): CappedCall[][] {
  const fixedInput = (readerBytecode().length - 2) / 2 + 64;
  const groups: CappedCall[][] = [];
  let group: CappedCall[] = [];
  let answer = 64;
  let input = fixedInput;
  for (const call of calls) {
    if (answerBytes(call) + 64 > MAX_ANSWER_BYTES || inputBytes(call) + fixedInput > MAX_INPUT_BYTES) {
      throw new Error(`cappedMulticall: a call of ${call.maxReturnBytes} answer bytes cannot be read`);
    }
    if (answer + answerBytes(call) > MAX_ANSWER_BYTES || input + inputBytes(call) > MAX_INPUT_BYTES) {
      groups.push(group);
      group = [];
      answer = 64;
      input = fixedInput;
    }
    group.push(call);
    answer += answerBytes(call);
    input += inputBytes(call);
  }
  groups.push(group);
  return groups;
}

function gasOf(group: readonly CappedCall[], data: Hex): bigint {
  let gas = BASE_GAS + GAS_PER_INPUT_BYTE * BigInt((data.length - 2) / 2);
  for (const call of group) {
    gas += call.gas + call.gas / 63n + GAS_PER_CALL + GAS_PER_ANSWER_BYTE * BigInt(answerBytes(call));
  }
  return gas;
}

/**
 * Runs read-only calls in one eth_call (more only when their answers could exceed what one
 * creation may return) through CappedMulticall.sol, which is never deployed: each call has its
 * own gas cap and keeps only its answer's first bytes. One result per call, in order. Throws
 * RpcError when the chain cannot be asked or the reader itself failed.
 */
export async function cappedMulticall(
  client: RpcClient,
  calls: readonly CappedCall[],
  options: { blockNumber?: bigint } = {},
): Promise<CappedCallResult[]> {
  if (calls.length === 0) return [];
  const at = options.blockNumber === undefined ? "latest" : `block ${options.blockNumber}`;
  const answers = await Promise.all(
    split(calls).map(async (group) => {
      const data = encodeDeployData({
        abi: cappedMulticallAbi,
        bytecode: readerBytecode(),
        args: [
          group.map((call) => ({
            target: call.to,
            gas: call.gas,
            maxReturnBytes: BigInt(call.maxReturnBytes),
            data: call.data,
          })),
        ],
      });
      const result = await callRaw(client, undefined, data, { ...options, gas: gasOf(group, data) });
      if (!result.ok) {
        // The calls' own failures are results: this is the reader's, e.g. a node gas cap too low.
        throw new RpcError(`A deployless read of ${group.length} calls at ${at} failed.`, {
          details: "the reader contract reverted or ran out of gas",
        });
      }
      try {
        return decodeCappedMulticall(result.data, group);
      } catch (error) {
        throw new RpcError(`A deployless read of ${group.length} calls at ${at} answered malformed data.`, {
          details: error instanceof Error ? error.message : String(error),
          cause: error,
        });
      }
    }),
  );
  return answers.flat();
}
