import { type Address, encodeFunctionData, type Hex, hexToBytes } from "viem";
import type { Token } from "../domain/types.js";
import { InvalidTokenMetadataError, NotErc20Error } from "../errors.js";
import { erc20Abi } from "./abis.js";
import { cleanTokenText } from "./cleanTokenText.js";
import type { CappedCallResult } from "./decodeCappedMulticall.js";
import type { BatchedRead } from "./runBatchedReads.js";

/**
 * Gas each metadata call may burn. A plain name() costs ~3k gas, one behind a proxy ~10k: 150k
 * is ample, and a contract that burns gas (or returns megabytes, whose memory alone costs
 * millions) runs out after a few milliseconds instead of burning the node's whole call gas cap.
 */
export const METADATA_GAS = 150_000n;
/**
 * Longest symbol and name served, in code points after cleaning; longer ones are cut (with "…")
 * rather than refused, as ERC-20 makes both optional and free-form. 32 is the longest symbol the
 * API accepts as input; 64 holds every real token name we know of.
 * @internal exported for tests, which pin this limit.
 */
export const MAX_SYMBOL_LENGTH = 32;
/** @internal exported for tests, which pin this limit. */
export const MAX_NAME_LENGTH = 64;
/**
 * Highest decimals accepted. Real tokens use 0 to 24 (a few 27 or 30); past 33 not even one whole
 * token fits in a Uniswap V2 reserve (uint112, ~5.2e33 units), so a price would be meaningless.
 */
const MAX_DECIMALS = 36;
// Bytes of a returned string that are decoded at all: room for MAX_NAME_LENGTH 4-byte code points
// and the junk cleaning removes. The rest of an oversized answer is never turned into a string.
const MAX_TEXT_BYTES = 1024;
/**
 * Bytes of a name() or symbol() answer that leave the node: the ABI head (offset and length
 * words) and MAX_TEXT_BYTES of text. A longer answer is cut there and its text decoded from them.
 * @internal exported for tests, which pin this limit.
 */
export const TEXT_ANSWER_BYTES = 64 + MAX_TEXT_BYTES;

const CALLS = {
  decimals: encodeFunctionData({ abi: erc20Abi, functionName: "decimals" }),
  name: encodeFunctionData({ abi: erc20Abi, functionName: "name" }),
  symbol: encodeFunctionData({ abi: erc20Abi, functionName: "symbol" }),
};

// One 32-byte ABI word of `data` (hex digits after "0x"), as a number of bytes; undefined past the end.
function word(data: Hex, at: number): bigint | undefined {
  const start = 2 + at * 2;
  if (data.length < start + 64) return undefined;
  return BigInt(`0x${data.slice(start, start + 64)}`);
}

function utf8(data: Hex, from: number, length: number): string {
  const bytes = hexToBytes(`0x${data.slice(2 + from * 2, 2 + (from + length) * 2)}`);
  // `stream`: a character the MAX_TEXT_BYTES cut split in two is left out, not decoded as U+FFFD.
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes, { stream: true });
}

/**
 * The raw text of a name() or symbol() answer: an ABI string, or bytes32 on early tokens (MKR,
 * SAI). `data` holds the answer's first bytes and `size` is its full size: the encoding is
 * checked against the full answer, and only the first MAX_TEXT_BYTES bytes of text that `data`
 * holds are decoded, whatever length the answer claims.
 */
function decodeText(data: Hex, size: number): string | undefined {
  if (size === 32) return utf8(data, 0, 32);
  const offset = word(data, 0);
  if (offset === undefined || offset > BigInt(size - 32)) return undefined;
  const length = word(data, Number(offset));
  const start = Number(offset) + 32;
  if (length === undefined || length > BigInt(size - start)) return undefined;
  const held = (data.length - 2) / 2 - start;
  return utf8(data, start, Math.min(Number(length), MAX_TEXT_BYTES, held));
}

function text(result: CappedCallResult | undefined, maxLength: number): string {
  const raw = result?.ok ? decodeText(result.data, result.size) : undefined;
  return raw === undefined ? "" : cleanTokenText(raw, maxLength);
}

/**
 * The calls that read an ERC-20's decimals(), name() and symbol() (each gas-capped, text cut to
 * TEXT_ANSWER_BYTES), and their decoding into a Token: text cleaned and bounded
 * (cleanTokenText), a name or symbol that cannot be read is "". Decoding throws NotErc20Error
 * when decimals() does not answer a uint8 (no code, revert, out of gas) and
 * InvalidTokenMetadataError when it exceeds MAX_DECIMALS.
 */
export function buildTokenMetadataRead(address: Address, network: string): BatchedRead<Token> {
  const lower = address.toLowerCase() as Address;
  const notErc20 = (reason: string) => new NotErc20Error({ address: lower, network, reason });
  return {
    calls: [
      { to: lower, data: CALLS.decimals, gas: METADATA_GAS, maxReturnBytes: 32 },
      { to: lower, data: CALLS.name, gas: METADATA_GAS, maxReturnBytes: TEXT_ANSWER_BYTES },
      { to: lower, data: CALLS.symbol, gas: METADATA_GAS, maxReturnBytes: TEXT_ANSWER_BYTES },
    ],
    decode([answer, nameAnswer, symbolAnswer]) {
      if (answer === undefined || !answer.ok) {
        throw notErc20(`decimals() reverted or ran out of its ${METADATA_GAS} gas`);
      }
      if (answer.size === 0) throw notErc20("decimals() returned nothing: no contract code or no decimals()");
      const value = word(answer.data, 0);
      if (value === undefined || value > 255n) throw notErc20("decimals() returned no uint8");
      const decimals = Number(value);
      if (decimals > MAX_DECIMALS) {
        throw new InvalidTokenMetadataError({ address: lower, network, decimals, maxDecimals: MAX_DECIMALS });
      }
      const name = text(nameAnswer, MAX_NAME_LENGTH);
      const symbol = text(symbolAnswer, MAX_SYMBOL_LENGTH);
      return { address: lower, name: name || symbol, symbol, decimals };
    },
  };
}
