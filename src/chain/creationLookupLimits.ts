import type { RpcClient } from "./createRpcClient.js";

/** What pool-creation lookups learned of one RPC URL (see findPairCreations). */
export interface CreationLookupLimits {
  /** The URL refused eth_getLogs over the whole chain: the lookup searches instead. */
  wideRefused: boolean;
  /** Blocks one eth_getLogs may span there (what its refusals said, or halved). */
  span: number;
  /** The URL has no state at old blocks (not an archive node): creation blocks cannot be searched. */
  noOldState: boolean;
}

/**
 * Process-wide, by URL (a network's clients share their URLs' limits, and a refused whole-chain
 * call is never sent again to that URL while the process runs).
 * @internal exported for tests, which clear it (a later test's emulator may reuse a port).
 */
export const CREATION_LOOKUP_LIMITS = new Map<string, CreationLookupLimits>();

/** A URL as a key: viem's errors name the URL as fetch resolved it ("http://host:1/" for "http://host:1"). */
function keyOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** The keys of a client's URLs: the URLs createRpcClient was given, else its transport's URL, else its id. */
export function lookupKeysOf(client: RpcClient): string[] {
  const urls = client.chain?.rpcUrls.default.http;
  if (urls !== undefined && urls.length > 0) return urls.map(keyOf);
  const url = (client.transport as { url?: unknown }).url;
  return [typeof url === "string" ? keyOf(url) : `client:${client.uid}`];
}

/** What is known of a client's URLs together: the strictest of them (any refusal counts). */
export function readLookupLimits(keys: readonly string[]): CreationLookupLimits | undefined {
  const known = keys.flatMap((key) => CREATION_LOOKUP_LIMITS.get(key) ?? []);
  if (known.length === 0) return undefined;
  return {
    wideRefused: known.some((limits) => limits.wideRefused),
    span: Math.min(...known.map((limits) => limits.span)),
    noOldState: known.some((limits) => limits.noOldState),
  };
}

/**
 * Records what the URL that answered (`url`, as an error names it) said, or when unknown what each
 * of `keys` may have said; true when it is news.
 */
export function recordLookupLimits(
  keys: readonly string[],
  url: string | undefined,
  learned: Partial<CreationLookupLimits>,
): boolean {
  let news = false;
  for (const key of url === undefined ? keys : [keyOf(url)]) {
    const old = CREATION_LOOKUP_LIMITS.get(key) ?? {
      wideRefused: false,
      span: Number.MAX_SAFE_INTEGER,
      noOldState: false,
    };
    const next = {
      wideRefused: old.wideRefused || learned.wideRefused === true,
      span: Math.min(old.span, learned.span ?? old.span),
      noOldState: old.noOldState || learned.noOldState === true,
    };
    news ||= next.wideRefused !== old.wideRefused || next.noOldState !== old.noOldState;
    CREATION_LOOKUP_LIMITS.set(key, next);
  }
  return news;
}
