/** The node behind the emulator. */
export interface Upstream {
  /** Posts one JSON-RPC body (a call or a batch) and returns its parsed answer. */
  call(body: unknown): Promise<unknown>;
  /** The node's head block number. */
  head(): Promise<bigint>;
}

/** The node at `url` (an anvil), spoken to over HTTP. */
export function createUpstream(url: string): Upstream {
  async function call(body: unknown): Promise<unknown> {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`upstream answered ${response.status} with no JSON: ${text.slice(0, 200)}`);
    }
  }

  async function head(): Promise<bigint> {
    const answer = (await call({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })) as {
      result?: string;
    };
    if (typeof answer.result !== "string") throw new Error("upstream: no block number");
    return BigInt(answer.result);
  }

  return { call, head };
}
