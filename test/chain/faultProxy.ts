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
export type Fault =
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "rpcError"; code: number; message: string; status?: number }
  | { kind: "hang" }
  | { kind: "body"; body: string };

/** A fault injected for requests that match, at most `times` times (default: always). */
export interface FaultRule {
  match: (request: { method: string; params: unknown[] }) => boolean;
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
  close(): Promise<void>;
}

/** Blocks spanned by an eth_getLogs request (0 when it is not a block-range query). */
export function getLogsSpan(params: unknown[]): number {
  const filter = params[0] as { fromBlock?: string; toBlock?: string } | undefined;
  if (filter?.fromBlock === undefined || filter.toBlock === undefined) return 0;
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

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    const body = JSON.parse(text) as { id?: unknown; method?: string; params?: unknown[] };
    // Batches are forwarded untouched; the clients under test send single requests.
    const method = Array.isArray(body) ? "batch" : (body.method ?? "");
    const params = Array.isArray(body) ? [] : (body.params ?? []);
    const rule = rules.find((candidate) => (candidate.times ?? 1) > 0 && candidate.match({ method, params }));
    const record: SeenRequest = { method, params, at: Date.now() - started, outcome: "forward" };
    seen.push(record);
    if (rule !== undefined) {
      if (rule.times !== undefined) rule.times--;
      const fault = typeof rule.fault === "function" ? rule.fault({ method, params }) : rule.fault;
      record.outcome = fault.kind;
      switch (fault.kind) {
        case "hang":
          return; // never answered; the socket is destroyed on close()
        case "status":
          res.writeHead(fault.status, { "content-type": "text/plain", ...fault.headers });
          res.end(fault.body ?? `injected ${fault.status}`);
          return;
        case "rpcError":
          res.writeHead(fault.status ?? 200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              jsonrpc: "2.0",
              id: body.id ?? null,
              error: { code: fault.code, message: fault.message },
            }),
          );
          return;
        case "body":
          res.writeHead(200, { "content-type": "application/json" });
          res.end(fault.body.replace("__ID__", JSON.stringify(body.id ?? null)));
          return;
        default: {
          const never: never = fault;
          throw new Error(`unknown fault ${JSON.stringify(never)}`);
        }
      }
    }
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    const answer = await upstream.text();
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(answer);
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

  return {
    url: `http://127.0.0.1:${port}`,
    rules,
    seen,
    count: (method) => seen.filter((request) => request.method === method).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
