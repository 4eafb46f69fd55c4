import type { RpcCostModel } from "../domain/types.js";

/**
 * Providers that bill by compute units (or credits) per method, recognised by the host of an RPC
 * URL: the host ends with one of these names. A small list of the common ones; a provider not
 * listed is priced by setting `rpc.computeUnits` (or `rpc.costModel: "computeUnits"`).
 */
const METERED_PROVIDER_HOSTS: Readonly<Record<string, string>> = {
  "alchemy.com": "Alchemy",
  "infura.io": "Infura",
  "quiknode.pro": "QuickNode",
  "ankr.com": "Ankr",
  "chainstack.com": "Chainstack",
  "p2pify.com": "Chainstack",
  "drpc.org": "dRPC",
  "nodereal.io": "NodeReal",
  "getblock.io": "GetBlock",
  "blastapi.io": "BlastAPI",
  "moralis-nodes.com": "Moralis",
};

/** The model a network's reads are priced in, and why (safe to log: names no URL's path or query). */
interface ResolvedCostModel {
  model: RpcCostModel;
  reason: string;
}

/**
 * The metered provider an RPC URL belongs to, by its host (undefined: none known, or not a URL).
 * @internal exported for tests.
 */
export function meteredProviderOf(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  for (const [suffix, name] of Object.entries(METERED_PROVIDER_HOSTS)) {
    if (host === suffix || host.endsWith(`.${suffix}`)) return name;
  }
  return undefined;
}

/**
 * Resolves `rpc.costModel`: an explicit model stands; "auto" prices by compute units when
 * `rpc.computeUnits` is configured or an RPC URL is a known metered provider's, and by measured
 * time otherwise (a self-hosted node, a devnet: nothing is billed, only time is spent). Pure.
 */
export function resolveCostModel(
  costModel: RpcCostModel | "auto",
  computeUnits: Readonly<Record<string, number>> | undefined,
  urls: readonly string[],
): ResolvedCostModel {
  if (costModel !== "auto") return { model: costModel, reason: "configured (rpc.costModel)" };
  if (computeUnits !== undefined) return { model: "computeUnits", reason: "rpc.computeUnits is configured" };
  for (const url of urls) {
    const provider = meteredProviderOf(url);
    if (provider !== undefined)
      return { model: "computeUnits", reason: `an RPC URL is ${provider}'s (metered)` };
  }
  return { model: "time", reason: "no rpc.computeUnits and no RPC URL of a known metered provider" };
}
