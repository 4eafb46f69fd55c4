import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { answerCalls } from "./answerCalls.js";
import { createUpstream } from "./createUpstream.js";
import { createUsageMeter, type ProviderUsage } from "./createUsageMeter.js";
import type { RpcCall } from "./emulatorRpc.js";
import type { ProviderFaults } from "./providerFaults.js";
import { type RateBucket, refuseRequest } from "./refuseRequest.js";

/**
 * Compute units per call, as Alchemy priced them in its "Compute Unit Costs" table until 2024
 * (https://www.alchemy.com/docs/reference/compute-unit-costs): the order of magnitude every
 * hosted provider charges (Infura's credits, QuickNode's API credits and Chainstack's request
 * units rank the methods alike: eth_getLogs and block receipts dear, the head cheap). Alchemy's
 * 2025 table charges 20 for block, transaction and receipt reads and 60 for eth_getLogs.
 * Methods missing here cost DEFAULT_COMPUTE_UNITS. The indexer's cost model prices reads by the
 * same prices (src/chain/readsWholeBlock.ts's table; the devnet imports nothing from the product,
 * test/devnet/productContract.test.ts checks the two tables are equal).
 * @internal exported for tests, which price calls with it.
 */
export const COMMON_COMPUTE_UNITS: Readonly<Record<string, number>> = {
  eth_getLogs: 75,
  eth_getBlockByNumber: 16,
  eth_getTransactionByHash: 17,
  eth_getTransactionReceipt: 15,
  eth_call: 26,
  eth_getTransactionCount: 26,
  eth_blockNumber: 10,
  eth_chainId: 0,
  eth_getBlockReceipts: 500,
};

/**
 * Compute units of a method COMMON_COMPUTE_UNITS does not list.
 * @internal exported for tests, which price calls with it.
 */
export const DEFAULT_COMPUTE_UNITS = 20;

/** A JSON-RPC HTTP endpoint in front of a node that counts, prices and misbehaves like a hosted provider. */
export interface ProviderEmulator {
  url: string;
  /** The faults in force (none by default). */
  readonly faults: ProviderFaults;
  /** Replaces the faults in force, e.g. to end a lag mid-run. */
  setFaults(faults: ProviderFaults): void;
  usage(): ProviderUsage;
  /** Forgets the usage counted so far (the rate limit's budget is kept). */
  reset(): void;
  close(): Promise<void>;
}

/** Options of createProviderEmulator. */
export interface ProviderEmulatorOptions {
  /** The node's JSON-RPC URL (an anvil). */
  upstream: string;
  faults?: ProviderFaults;
  /** Compute units by method (default COMMON_COMPUTE_UNITS). */
  computeUnits?: Readonly<Record<string, number>>;
  /** Compute units of a method the table misses (default DEFAULT_COMPUTE_UNITS). */
  defaultComputeUnits?: number;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
  /**
   * Gzip answers of clients that accept it, as hosted providers do (default true); usage then
   * counts the bytes on the wire beside the answers' JSON bytes.
   */
  compress?: boolean;
}

// Answers smaller than this go uncompressed, as providers' edges leave small bodies alone.
const COMPRESS_FROM_BYTES = 1_024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/**
 * Starts a JSON-RPC HTTP proxy on 127.0.0.1 in front of `upstream` that counts calls, answer
 * bytes and compute units by method (each call of a batch counted on its own), and injects the
 * switchable faults of hosted providers (ProviderFaults).
 */
export async function createProviderEmulator(options: ProviderEmulatorOptions): Promise<ProviderEmulator> {
  const prices = options.computeUnits ?? COMMON_COMPUTE_UNITS;
  const defaultPrice = options.defaultComputeUnits ?? DEFAULT_COMPUTE_UNITS;
  let faults: ProviderFaults = { ...(options.faults ?? {}) };
  const sockets = new Set<Socket>();
  const meter = createUsageMeter(prices, defaultPrice);
  const upstream = createUpstream(options.upstream);
  // The rate limit's token bucket: it refills continuously; a request takes one token per call.
  const bucket: RateBucket = { tokens: Number.NaN, at: performance.now() };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    meter.current.httpRequests++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
      return;
    }
    const batch = Array.isArray(parsed);
    if (batch) meter.current.batches++;
    const calls = (batch ? parsed : [parsed]) as RpcCall[];
    const refused = refuseRequest(faults, bucket, calls, batch);
    if (refused !== undefined) {
      meter.current.refused += calls.length;
      meter.current.faults[refused.fault] += calls.length;
      res.writeHead(refused.status, { "content-type": "application/json", ...refused.headers });
      res.end(refused.body);
      return;
    }
    const waited = meter.nodeWait();
    const { outcomes, status } = await answerCalls(faults, upstream, calls).finally(waited);
    // Each answer is serialized once: its size is its method's bytes, the batch joins them.
    const parts = outcomes.map((outcome, i) => {
      const call = calls[i] as RpcCall;
      const isError = "error" in outcome;
      const json = JSON.stringify(
        isError
          ? { jsonrpc: "2.0", id: call.id ?? null, error: outcome.error }
          : { jsonrpc: "2.0", id: call.id ?? null, result: outcome.result },
      );
      meter.count(
        typeof call.method === "string" ? call.method : "(invalid)",
        Buffer.byteLength(json),
        isError,
      );
      if (outcome.fault !== undefined) meter.current.faults[outcome.fault]++;
      return json;
    });
    const body = batch ? `[${parts.join(",")}]` : (parts[0] ?? "");
    const gzip =
      options.compress !== false &&
      Buffer.byteLength(body) >= COMPRESS_FROM_BYTES &&
      /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    const wire = gzip ? gzipSync(body) : Buffer.from(body);
    meter.current.wireBytes += wire.length;
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": wire.length,
      ...(gzip ? { "content-encoding": "gzip", vary: "accept-encoding" } : {}),
    });
    res.end(wire);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`provider emulator: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get faults() {
      return faults;
    },
    setFaults(next) {
      faults = { ...next };
      bucket.tokens = Number.NaN;
    },
    usage: () => meter.snapshot(),
    reset: () => meter.reset(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
