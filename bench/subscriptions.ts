import { type Address, createWalletClient, http, parseAbi } from "viem";

/** What bench/servers.ts prints for trading on its chain. */
export interface BenchSwapTarget {
  rpcUrl: string;
  router: Address;
  wrapped: Address;
  stable: Address;
  trader: Address;
}

const routerAbi = parseAbi([
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])",
]);
const QUERY = "subscription { swaps(network: bsc) { type blockNumber swaps { txHash volumeUSD } } }";
const ROUNDS = 5;

interface Subscriber {
  /** performance.now() of the first `next` event after `armed` was set. */
  receivedAt: number | undefined;
  close(): void;
}

async function openSubscriber(base: string, armed: { at: number }): Promise<Subscriber> {
  const controller = new AbortController();
  const response = await fetch(`${base}/graphql?query=${encodeURIComponent(QUERY)}`, {
    headers: { accept: "text/event-stream" },
    signal: controller.signal,
  });
  const subscriber: Subscriber = { receivedAt: undefined, close: () => controller.abort() };
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (decoder.decode(value, { stream: true }).includes("event: next") && armed.at > 0) {
          subscriber.receivedAt ??= performance.now();
        }
      }
    } catch {
      // aborted
    }
  })();
  return subscriber;
}

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(name));
  return line === undefined ? Number.NaN : Number(line.split(" ").at(-1));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Fan-out of one committed block to N SSE subscribers: a swap is mined on the devnet and each
 * subscriber's first event is timed from the mining call's return; the reference is the same
 * run with one subscriber. Server memory per open stream: its live heap after a full GC, with
 * the streams open against before.
 */
export async function benchSubscriptions(
  servers: { swapgraphUrl: string; swap: BenchSwapTarget; heapUsed(): Promise<number> },
  counts: readonly number[],
): Promise<Record<string, number | string>[]> {
  const { swapgraphUrl: base, swap: target } = servers;
  const wallet = createWalletClient({ transport: http(target.rpcUrl) });
  const mine = () =>
    fetch(target.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
    });
  const rows: Record<string, number | string>[] = [];
  let reference: number | undefined;
  for (const n of counts) {
    const heapBefore = await servers.heapUsed();
    const armed = { at: 0 };
    const subscribers = await Promise.all(Array.from({ length: n }, () => openSubscriber(base, armed)));
    for (;;) {
      if ((await metric(base, 'swapgraph_subscriptions{network="bsc"}')) >= n) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const heapOpen = await servers.heapUsed();
    const firsts: number[] = [];
    const lasts: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of subscribers) s.receivedAt = undefined;
      await wallet.writeContract({
        account: target.trader,
        chain: null,
        address: target.router,
        abi: routerAbi,
        functionName: "swapExactETHForTokens",
        args: [0n, [target.wrapped, target.stable], target.trader, 2n ** 40n],
        value: 10n ** 15n,
        gas: 300_000n,
      });
      armed.at = performance.now();
      await mine();
      const deadline = performance.now() + 30_000;
      while (subscribers.some((s) => s.receivedAt === undefined) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const times = subscribers.map((s) => (s.receivedAt ?? Number.NaN) - armed.at);
      firsts.push(Math.min(...times));
      lasts.push(Math.max(...times));
      armed.at = 0;
    }
    for (const s of subscribers) s.close();
    const last = median(lasts);
    reference ??= last;
    rows.push({
      subscribers: n,
      "first event ms (p50)": Math.round(median(firsts)),
      "last event ms (p50)": Math.round(last),
      "spread ms": Math.round(last - median(firsts)),
      "last vs 1 subscriber": (last / reference).toFixed(2),
      "server heap +MB": ((heapOpen - heapBefore) / 2 ** 20).toFixed(1),
      // One stream is within the heap's own noise (a few hundred KB either way after a GC).
      "KB per stream": n < 100 ? "-" : ((heapOpen - heapBefore) / 1024 / n).toFixed(1),
    });
    for (;;) {
      if ((await metric(base, 'swapgraph_subscriptions{network="bsc"}')) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return rows;
}
