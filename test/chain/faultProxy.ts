import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One JSON-RPC request as the proxy saw it. */
export interface SeenRequest {
  method: string;
  params: unknown[];
  /** ms since the proxy started. */
  at: number;
  /** What the proxy did: "forward" or the fault it injected. */
  outcome: string;
}

/** What a matching rule makes the proxy do instead of forwarding. */
type Fault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "rpcError"; code: number; message: string; status?: number }
  | { kind: "hang" }
  /** Closes the connection without an answer (as a server closing an idle keep-alive connection). */
  | { kind: "drop" }
  | { kind: "body"; body: string };

/** A fault injected for requests that match, at most `times` times (default: always). */
export interface FaultRule {
  /** `index` is the call's position in a JSON-RPC batch (0 for a single call): one HTTP request each. */
  match: (request: { method: string; params: unknown[]; index: number }) => boolean;
  /** The fault, or a function of the request (e.g. to name its block range in the message). */
  fault: Fault | ((request: { method: string; params: unknown[] }) => Fault);
  times?: number;
}

/** A real HTTP server in front of a JSON-RPC endpoint that injects faults by rule. */
export interface FaultProxy {
  url: string;
  rules: FaultRule[];
  seen: SeenRequest[];
  /** Requests seen for one method. */
  count(method: string): number;
  /**
   * Awaited before a request's calls go on to the node (after they are recorded in `seen`), e.g.
   * to mine a block just before a head poll is answered.
   */
  beforeForward: ((calls: readonly { method: string; params: unknown[] }[]) => Promise<void>) | undefined;
  /** Stops listening and drops every connection: new connections are refused until `open()`. */
  close(): Promise<void>;
  /** Listens again on the same port after `close()`. */
  open(): Promise<void>;
}

/**
 * Blocks spanned by an eth_getLogs request (0 when it is not a block-range query; infinite when an
 * end is a tag such as "latest": a capped provider refuses such a range as too wide).
 */
export function getLogsSpan(params: unknown[]): number {
  const filter = params[0] as { fromBlock?: string; toBlock?: string } | undefined;
  if (filter?.fromBlock === undefined || filter.toBlock === undefined) return 0;
  if (!filter.fromBlock.startsWith("0x") || !filter.toBlock.startsWith("0x")) return Number.POSITIVE_INFINITY;
  return Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock)) + 1;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Starts the proxy on 127.0.0.1 (a free port) in front of `target`. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const started = Date.now();
  const rules: FaultRule[] = [];
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();

  type Call = { id?: unknown; method?: string; params?: unknown[] };

  // The first rule that matches a call (and still has times left), used up by the match.
  const take = (call: Call, index: number): Fault | undefined => {
    const method = call.method ?? "";
    const params = call.params ?? [];
    const rule = rules.find(
      (candidate) => (candidate.times ?? 1) > 0 && candidate.match({ method, params, index }),
    );
    const record: SeenRequest = { method, params, at: Date.now() - started, outcome: "forward" };
    seen.push(record);
    if (rule === undefined) return undefined;
    if (rule.times !== undefined) rule.times--;
    const fault = typeof rule.fault === "function" ? rule.fault({ method, params }) : rule.fault;
    record.outcome = fault.kind;
    return fault;
  };

  const forward = async (text: string): Promise<{ status: number; body: string }> => {
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    return { status: upstream.status, body: await upstream.text() };
  };

  const rpcErrorOf = (call: Call, fault: { code: number; message: string }) => ({
    jsonrpc: "2.0",
    id: call.id ?? null,
    error: { code: fault.code, message: fault.message },
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const body = JSON.parse(text) as Call | Call[];
    // A batch: each call meets the rules; an HTTP-level fault of any call fails the whole batch,
    // JSON-RPC errors answer their own calls, and the rest is forwarded.
    const calls = Array.isArray(body) ? body : [body];
    const faults = calls.map(take);
    await proxy.beforeForward?.(
      calls.map((call) => ({ method: call.method ?? "", params: call.params ?? [] })),
    );
    const http = faults.find(
      (fault): fault is Exclude<Fault, { kind: "rpcError" }> =>
        fault !== undefined && fault.kind !== "rpcError",
    );
    if (http !== undefined) {
      switch (http.kind) {
        case "hang":
          return; // never answered; the socket is destroyed on close()
        case "drop":
          req.socket.destroy();
          return;
        case "status":
          res.writeHead(http.status, { "content-type": "text/plain", ...http.headers });
          res.end(http.body ?? `injected ${http.status}`);
          return;
        case "body":
          res.writeHead(200, { "content-type": "application/json" });
          res.end(http.body.replace("__ID__", JSON.stringify(calls[0]?.id ?? null)));
          return;
        default: {
          const never: never = http;
          throw new Error(`unknown fault ${JSON.stringify(never)}`);
        }
      }
    }
    if (!Array.isArray(body)) {
      const fault = faults[0];
      if (fault?.kind === "rpcError") {
        res.writeHead(fault.status ?? 200, { "content-type": "application/json" });
        res.end(JSON.stringify(rpcErrorOf(body, fault)));
        return;
      }
      const answer = await forward(text);
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
      return;
    }
    const passed = calls.filter((_, i) => faults[i] === undefined);
    const answers =
      passed.length === 0 ? [] : (JSON.parse((await forward(JSON.stringify(passed))).body) as Call[]);
    const byId = new Map(answers.map((answer) => [JSON.stringify(answer.id), answer]));
    const merged = calls.map((call, i) => {
      const fault = faults[i];
      return fault?.kind === "rpcError" ? rpcErrorOf(call, fault) : byId.get(JSON.stringify(call.id));
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(merged));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    rules,
    seen,
    beforeForward: undefined,
    count: (method) => seen.filter((request) => request.method === method).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
    open: () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
          server.off("error", reject);
          resolve();
        });
      }),
  };
  return proxy;
}
