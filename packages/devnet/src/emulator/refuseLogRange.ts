import { blockOf, type Filter, hex, type RpcError } from "./emulatorRpc.js";
import type { ProviderFaults } from "./providerFaults.js";

/** The log-range refusal of an eth_getLogs call, checked on its parameters alone. */
export function refuseLogRange(
  faults: ProviderFaults,
  filter: Filter,
  head: bigint,
): { error: RpcError; status?: number } | undefined {
  const cap = faults.logRange;
  if (cap === undefined || filter.blockHash !== undefined) return undefined;
  const from = blockOf(filter.fromBlock ?? "latest", head);
  const to = blockOf(filter.toBlock ?? "latest", head);
  if (from === undefined || to === undefined || to < from) return undefined;
  const span = Number(to - from + 1n);
  if (span <= cap.blocks) return undefined;
  const suggested = `[${hex(from)}, ${hex(from + BigInt(cap.blocks) - 1n)}]`;
  const style = cap.style ?? "quicknode";
  switch (style) {
    case "quicknode":
      return {
        error: {
          code: -32614,
          message: `eth_getLogs is limited to a ${cap.blocks.toLocaleString("en-US")} range`,
        },
        status: 413,
      };
    case "infura":
      return { error: { code: -32602, message: `range ${span} exceeds limit of ${cap.blocks}` } };
    case "alchemy":
      return {
        error: {
          code: -32600,
          message: `Under the Free tier plan, you can make eth_getLogs requests with up to a ${cap.blocks} block range. Based on your parameters, this block range should work: ${suggested}. Upgrade to PAYG for expanded block range.`,
        },
      };
    default: {
      const never: never = style;
      throw new Error(`unknown logRange style ${String(never)}`);
    }
  }
}
