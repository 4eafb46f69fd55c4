import { blockOf, type Filter, hex, logBlock, type RpcError } from "./emulatorRpc.js";
import type { ProviderFaults } from "./providerFaults.js";

/** The log-count refusal of an eth_getLogs answer, if it holds too many logs. */
export function refuseLogCount(
  faults: ProviderFaults,
  filter: Filter,
  logs: readonly unknown[],
  head: bigint,
): RpcError | undefined {
  const cap = faults.logCount;
  if (cap === undefined || logs.length <= cap.logs) return undefined;
  const from = blockOf(filter.fromBlock ?? "latest", head) ?? 0n;
  const to = blockOf(filter.toBlock ?? "latest", head) ?? head;
  const style = cap.style ?? "infura";
  const freeBlocks = cap.freeBlocks ?? 2000;
  if (style === "alchemy" && to - from + 1n <= BigInt(freeBlocks)) return undefined;
  // The widest range from `from` whose logs stay within the cap (at least one block).
  const blocks = logs.map(logBlock).filter((b): b is bigint => b !== undefined);
  blocks.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const over = blocks[cap.logs];
  let end = over === undefined ? to : over - 1n;
  if (end < from) end = from;
  if (style === "alchemy") {
    return {
      code: -32602,
      message: `Log response size exceeded. You can make eth_getLogs requests with up to a ${shortCount(freeBlocks)} block range and no limit on the response size, or you can request any block range with a cap of ${shortCount(cap.logs)} logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(from)}, ${hex(end)}]`,
    };
  }
  return {
    code: -32005,
    message: `query returned more than ${cap.logs} results. Try with this block range [${hex(from)}, ${hex(end)}].`,
    data: { from: hex(from), limit: cap.logs, to: hex(end) },
  };
}

/** "10K" for 10,000, "2K" for 2,000, else the plain number: Alchemy's wording. */
function shortCount(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}K` : String(n);
}
