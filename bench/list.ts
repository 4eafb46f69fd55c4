import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { Agent, get } from "node:http";
import { createInterface } from "node:readline";

/** One line of the list table. */
export interface ListRow {
  metric: string;
  value: string;
  reference: string;
}

/** Options of the whole-list benchmark. */
export interface BenchListOptions {
  /** Trades in the synthetic store, all in the 24-hour window (default 100,000). */
  size: number;
  /** Plain downloads of the whole list (default 5; the median is reported). */
  downloads?: number;
  /** A PostgreSQL URL: the store is PostgreSQL (a schema of its own in that database), else SQLite. */
  databaseUrl?: string;
}

interface Download {
  status: number;
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

/** One GET read to the end without keeping the body (`hash` sees every byte, outside timed runs). */
function download(
  url: string,
  agent: Agent,
  headers: Record<string, string>,
  hash?: (chunk: Buffer) => void,
): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = get(url, { agent, headers }, (res) => {
      let ttfbMs: number | undefined;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        ttfbMs ??= performance.now() - started;
        bytes += chunk.length;
        hash?.(chunk);
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ttfbMs: ttfbMs ?? performance.now() - started,
          totalMs: performance.now() - started,
          bytes,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const perRow = (ms: number, rows: number) => ((ms * 1000) / rows).toFixed(2);

/**
 * `npm run bench` (list part): GET /api/swaps_24h of a synthetic store of `size` trades, served
 * by the real HTTP server in a child process (bench/listServer.ts), downloaded whole from a
 * server that reads the settled hours the views keep on disk and from one that renders every
 * list: µs per row of the whole list next to what the same process measures in the same run for
 * the same rows: the store's raw page read (reading the rows at all) and the GraphQL path the list
 * ran before it read the views (graphql-js execute() and JSON.stringify, without HTTP). Every
 * answer's bytes are checked against that path's. CPU figures are the serving process's (user and
 * system, the database's not included).
 */
export async function benchList(options: BenchListOptions): Promise<ListRow[]> {
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      // BENCH_PROFILE=dir: a CPU profile of the serving process (the store's filling included).
      ...(process.env.BENCH_PROFILE === undefined
        ? []
        : ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]),
      "--import",
      "tsx",
      new URL("./listServer.ts", import.meta.url).pathname,
    ],
    {
      env: {
        ...process.env,
        // The store is the one the options name, whatever the environment says.
        BENCH_LIST_DATABASE_URL: undefined,
        NODE_ENV: "production",
        BENCH_LIST_SIZE: String(options.size),
        ...(options.databaseUrl === undefined ? {} : { BENCH_LIST_DATABASE_URL: options.databaseUrl }),
      },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`bench list server exited with ${code}`))),
  );
  exited.catch(() => {});
  const nextLine = () =>
    Promise.race([new Promise<string>((resolve) => lines.once("line", resolve)), exited]);
  const ask = async <T>(command: string): Promise<T> => {
    const answer = nextLine();
    child.stdin!.write(`${command}\n`);
    return JSON.parse(await answer) as T;
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const {
      url,
      keptUrl,
      trades,
      kept: rendered,
    } = JSON.parse(await nextLine()) as {
      url: string;
      keptUrl: string;
      trades: number;
      /** How long the views took to render the settled hours, before any download. */
      kept: { ms: number; cpuMs: number; hours: number };
    };
    const listUrl = `${url}/api/swaps_24h?network=bsc`;
    const keptListUrl = `${keptUrl}/api/swaps_24h?network=bsc`;
    const downloads = options.downloads ?? 5;
    // CPU time of the serving process (not the database's): steadier than wall time on a busy machine.
    const cpuMs = async () => (await ask<{ cpuMs: number }>("cpu")).cpuMs;
    const timed = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
      const before = await cpuMs();
      const result = await run();
      return [result, (await cpuMs()) - before];
    };
    const downloadAll = async (url: string) => {
      const all: Download[] = [];
      for (let i = 0; i < downloads; i++) all.push(await download(url, agent, {}));
      return all;
    };
    // The first download also warms the server up (JIT, caches); it is reported on its own.
    const [first, firstCpu] = await timed(() => download(listUrl, agent, {}));
    const [plain, plainCpuAll] = await timed(() => downloadAll(listUrl));
    const plainCpu = plainCpuAll / downloads;
    const gzip = await download(listUrl, agent, { "accept-encoding": "gzip" });
    // With settled hours on disk (the views rendered them before the server listened).
    const [keptFirst, keptFirstCpu] = await timed(() => download(keptListUrl, agent, {}));
    const [kept, keptCpuAll] = await timed(() => downloadAll(keptListUrl));
    const keptCpu = keptCpuAll / downloads;
    const keptGzip = await download(keptListUrl, agent, { "accept-encoding": "gzip" });
    const raws: { rows: number; ms: number }[] = [];
    for (let i = 0; i < 3; i++) raws.push(await ask<{ rows: number; ms: number }>("raw"));
    const previous = await ask<{ rows: number; ms: number; sha256: string }>("previous");
    const memory = await ask<{
      baseHeapMb: number;
      peakHeapMb: number;
      maxRssMb: number;
      afterGcMb: number;
    }>("memory");
    // Not timed: the bytes of both servers' answers against the previous path's.
    const hashOf = async (target: string) => {
      const sha256 = createHash("sha256");
      await download(target, agent, {}, (chunk) => sha256.update(chunk));
      return sha256.digest("hex");
    };
    const same =
      (await hashOf(listUrl)) === previous.sha256 && (await hashOf(keptListUrl)) === previous.sha256;
    if (!same) process.exitCode = 1;
    const answers = [...plain, ...kept, keptFirst];
    if (answers.some((d) => d.status !== 200 || d.bytes !== first.bytes) || raws[0]!.rows !== trades) {
      throw new Error(
        `unexpected answers: statuses ${plain.map((d) => d.status)}, ${raws[0]!.rows} rows read of ${trades}`,
      );
    }
    const total = median(plain.map((d) => d.totalMs));
    const keptTotal = median(kept.map((d) => d.totalMs));
    const raw = median(raws.map((r) => r.ms));
    const rawReference = `store's raw page read of the same rows (pages of 1,000, median of 3): ${perRow(raw, trades)} µs/row (${raw.toFixed(0)} ms)`;
    return [
      {
        metric: `/api/swaps_24h, whole list of ${trades.toLocaleString("en-US")} swaps, settled hours kept on disk (median of ${kept.length})`,
        value: `${perRow(keptTotal, trades)} µs/row: ${keptTotal.toFixed(0)} ms, TTFB ${median(kept.map((d) => d.ttfbMs)).toFixed(1)} ms; CPU ${perRow(keptCpu, trades)} µs/row`,
        reference: rawReference,
      },
      {
        metric: "  the same, first download",
        value: `${perRow(keptFirst.totalMs, trades)} µs/row: ${keptFirst.totalMs.toFixed(0)} ms, TTFB ${keptFirst.ttfbMs.toFixed(1)} ms; CPU ${perRow(keptFirstCpu, trades)} µs/row`,
        reference: `gzip from the kept hours: ${perRow(keptGzip.totalMs, trades)} µs/row, ${(keptGzip.bytes / 1024 / 1024).toFixed(1)} MB on the wire`,
      },
      {
        metric:
          "  the settled hours, rendered once by the views (off the request path, before the downloads)",
        value: `${rendered.hours} hours in ${rendered.ms.toFixed(0)} ms, CPU ${rendered.cpuMs.toFixed(0)} ms: ${perRow(rendered.cpuMs, trades)} µs/row of the list`,
        reference: "once per hour as it settles, not per download",
      },
      {
        metric: `/api/swaps_24h, whole list rendered every time (median of ${plain.length})`,
        value: `${perRow(total, trades)} µs/row: ${total.toFixed(0)} ms, TTFB ${median(plain.map((d) => d.ttfbMs)).toFixed(1)} ms; CPU ${perRow(plainCpu, trades)} µs/row`,
        reference: rawReference,
      },
      {
        metric: "  the same vs the GraphQL path it replaced",
        value: `${(previous.ms / total).toFixed(1)}x faster (kept hours: ${(previous.ms / keptTotal).toFixed(1)}x)`,
        reference: `graphql-js execute() + JSON.stringify, same process, no HTTP: ${perRow(previous.ms, previous.rows)} µs/row (${previous.ms.toFixed(0)} ms; ${same ? "the same bytes" : "OTHER BYTES"})`,
      },
      {
        metric: "  the same, first download",
        value: `${perRow(first.totalMs, trades)} µs/row: ${first.totalMs.toFixed(0)} ms, TTFB ${first.ttfbMs.toFixed(1)} ms; CPU ${perRow(firstCpu, trades)} µs/row`,
        reference: `${(first.bytes / 1024 / 1024).toFixed(1)} MB`,
      },
      {
        metric: "  memory of the serving process over all the downloads",
        value: `heap ${memory.baseHeapMb.toFixed(0)} MB before them, peak ${memory.peakHeapMb.toFixed(0)} MB, ${memory.afterGcMb.toFixed(0)} MB after a full GC; max RSS ${memory.maxRssMb.toFixed(0)} MB`,
        reference: `the list is ${(first.bytes / 1024 / 1024).toFixed(1)} MB: the rows stream page by page`,
      },
      {
        metric: "  the same, gzip",
        value: `${perRow(gzip.totalMs, trades)} µs/row: ${gzip.totalMs.toFixed(0)} ms, TTFB ${gzip.ttfbMs.toFixed(1)} ms`,
        reference: `${(gzip.bytes / 1024 / 1024).toFixed(1)} MB on the wire`,
      },
    ];
  } finally {
    agent.destroy();
    child.stdin!.end();
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = Number(process.env.BENCH_LIST_SIZE ?? 100_000);
  // With BENCH_LIST_DATABASE_URL the same list is measured on PostgreSQL too, after SQLite.
  const databaseUrl = process.env.BENCH_LIST_DATABASE_URL;
  for (const url of databaseUrl === undefined ? [undefined] : [undefined, databaseUrl]) {
    console.log(
      `Whole list: GET /api/swaps_24h of a synthetic ${url === undefined ? "SQLite" : "PostgreSQL"} store of ${size.toLocaleString("en-US")} trades, server in a child process`,
    );
    console.table(await benchList({ size, ...(url === undefined ? {} : { databaseUrl: url }) }));
  }
}
