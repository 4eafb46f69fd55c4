import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Calls and response bytes of one JSON-RPC method. */
export interface MethodCount {
  calls: number;
  bytes: number;
}

/** A JSON-RPC proxy on 127.0.0.1 that counts what passes through it. */
export interface CountingProxy {
  url: string;
  /** HTTP requests (a JSON-RPC batch is one). */
  readonly httpRequests: number;
  /** By method; each call of a batch counts, batch response bytes are shared out by call. */
  counts(): Map<string, MethodCount>;
  /** Forgets everything counted so far. */
  reset(): void;
  close(): Promise<void>;
}

interface Call {
  id?: unknown;
  method?: unknown;
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/**
 * Starts a proxy in front of the JSON-RPC endpoint `target` that forwards every request as is and
 * counts calls and response bytes by method.
 */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let counts = new Map<string, MethodCount>();
  let httpRequests = 0;
  const sockets = new Set<Socket>();

  const add = (method: string, calls: number, bytes: number) => {
    const entry = counts.get(method) ?? { calls: 0, bytes: 0 };
    entry.calls += calls;
    entry.bytes += bytes;
    counts.set(method, entry);
  };

  const forward = (body: Buffer, contentType: string) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: upstream.hostname,
          port: upstream.port,
          path: `${upstream.pathname}${upstream.search}`,
          method: "POST",
          headers: { "content-type": contentType, "content-length": body.length },
        },
        (res) => {
          readBody(res).then((answer) => resolve({ status: res.statusCode ?? 502, body: answer }), reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });

  // Bytes of a batch answer go to its calls' methods: all to one method when the batch has only
  // one (no parsing of big answers), else by each answer's own size.
  const count = (calls: Call[], batch: boolean, answer: Buffer) => {
    const methods = calls.map((call) => (typeof call.method === "string" ? call.method : "(invalid)"));
    const distinct = new Set(methods);
    if (!batch || distinct.size === 1) {
      add(methods[0] ?? "(empty)", methods.length, answer.length);
      return;
    }
    let answers: Call[] = [];
    try {
      answers = JSON.parse(answer.toString("utf8")) as Call[];
    } catch {
      // Not a JSON array: share the bytes out evenly.
    }
    const sizeById = new Map<string, number>();
    let measured = 0;
    if (Array.isArray(answers)) {
      for (const item of answers) {
        const size = Buffer.byteLength(JSON.stringify(item));
        sizeById.set(JSON.stringify(item.id ?? null), size);
        measured += size;
      }
    }
    for (const [i, call] of calls.entries()) {
      const size = sizeById.get(JSON.stringify(call.id ?? null));
      const share =
        size !== undefined && measured > 0 ? (size / measured) * answer.length : answer.length / calls.length;
      add(methods[i] ?? "(invalid)", 1, share);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    httpRequests++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      parsed = {};
    }
    const batch = Array.isArray(parsed);
    const calls = (batch ? parsed : [parsed]) as Call[];
    const answer = await forward(body, req.headers["content-type"] ?? "application/json");
    count(calls, batch, answer.body);
    res.writeHead(answer.status, {
      "content-type": "application/json",
      "content-length": answer.body.length,
    });
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${String(error)}`);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get httpRequests() {
      return httpRequests;
    },
    counts: () => new Map([...counts].map(([method, c]) => [method, { ...c }])),
    reset() {
      counts = new Map();
      httpRequests = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
