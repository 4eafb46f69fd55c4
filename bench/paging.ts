import { Agent, request } from "node:http";

// The honest reader: tx, log index, block, sender, time, both sides with token address,
// symbol and decimals, USD, tracked, pools; one page of 1,000 at a time.
const SIDE = "token { address symbol decimals } amount amountDecimal";
const PAGE_QUERY = `query History($from: Timestamp!, $after: String, $atBlock: BigInt) {
  swaps(network: bsc, from: $from, first: 1000, after: $after, atBlock: $atBlock) {
    pageInfo { hasNextPage endCursor }
    edges { node { txHash logIndex blockNumber sender timestamp sell { ${SIDE} } buy { ${SIDE} } volumeUSD tracked pools } }
  }
}`;
const READER_ADDRESS = "127.0.0.30";
const WEEK = 7 * 86_400;

/** One row of the paging table. */
export interface PagingRow {
  reader: string;
  swaps: number;
  pages: number;
  seconds: number;
  "swaps/s": number;
  "429s": number;
}

function send(
  agent: Agent,
  url: URL,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: body === undefined ? "GET" : "POST",
        agent,
        headers: body === undefined ? {} : { "content-type": "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * One client alone on the server with the default per-client budget: pages the last week of
 * bsc swaps through GraphQL, 1,000 at a time, one page after the other, from the start again
 * whenever it reached the end, for `seconds`; then reads the same window from the NDJSON export
 * as often in the same time. The aim for the GraphQL reader: at least 5,000 swaps a
 * second, no 429.
 */
export async function benchPaging(baseUrl: string, seconds: number): Promise<PagingRow[]> {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, localAddress: READER_ADDRESS, maxSockets: 1 });
  const from = Math.floor(Date.now() / 1000) - WEEK;
  const rows: PagingRow[] = [];
  try {
    let swaps = 0;
    let pages = 0;
    let refused = 0;
    let after: string | null = null;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      const answer = await send(
        agent,
        url,
        "/graphql",
        JSON.stringify({ query: PAGE_QUERY, variables: { from, after } }),
      );
      if (answer.status === 429) {
        refused++;
        continue;
      }
      if (answer.status !== 200)
        throw new Error(`a page answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      const page = (
        JSON.parse(answer.text) as {
          data: { swaps: { edges: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
        }
      ).data.swaps;
      swaps += page.edges.length;
      pages++;
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    }
    const graphqlSeconds = (performance.now() - started) / 1000;
    rows.push({
      reader: "GraphQL, pages of 1,000, one at a time",
      swaps,
      pages,
      seconds: Number(graphqlSeconds.toFixed(1)),
      "swaps/s": Math.round(swaps / graphqlSeconds),
      "429s": refused,
    });
    let exported = 0;
    let reads = 0;
    const exportStarted = performance.now();
    while (performance.now() - exportStarted < seconds * 1000) {
      const answer = await send(agent, url, `/api/swaps_export?network=bsc&from=${from}`);
      if (answer.status !== 200) throw new Error(`the export answered ${answer.status}`);
      exported += answer.text.split("\n").length - 1;
      reads++;
    }
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    rows.push({
      reader: "GET /api/swaps_export (NDJSON)",
      swaps: exported,
      pages: reads,
      seconds: Number(exportSeconds.toFixed(1)),
      "swaps/s": Math.round(exported / exportSeconds),
      "429s": 0,
    });
  } finally {
    agent.destroy();
  }
  return rows;
}
