import { escapeHtml } from "./escapeHtml.js";

/**
 * Example requests the landing page links to (they answer on the demo and on any bsc/eth setup).
 * @internal exported for tests, which run the examples.
 */
export const LANDING_EXAMPLES = [
  {
    href: "/api/quote?sellToken=BNB&buyToken=USDT",
    what: "the price of one BNB in USDT on bsc, along the best route of the indexed pools",
  },
  {
    href: "/api/swaps_24h?network=eth&limit=10",
    what: "the first 10 swaps of the last 24 hours on eth (X-Next-Cursor pages on)",
  },
  {
    href: "/api/trade_volume_usd_7d",
    what: "trade volume in USD and trading addresses per day, the last 7 days on bsc",
  },
] as const;

const STYLE = `
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1d2330; background: #fafbfc; }
  main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
  h1 { margin: 0 0 .25rem; font-size: 2rem; }
  h2 { margin: 2rem 0 .5rem; font-size: 1.1rem; }
  ul { padding-left: 1.2rem; }
  li { margin: .35rem 0; }
  a { color: #0b57d0; }
  code { font: 14px ui-monospace, Menlo, Consolas, monospace; background: #eef1f5; padding: .1rem .3rem; border-radius: 3px; }
  footer { margin-top: 2.5rem; color: #5f6b7a; font-size: 14px; }
  .notice { border-left: 4px solid #b54708; background: #fffaeb; padding: .6rem .9rem; }
`;

function item(href: string, label: string, what: string): string {
  return `<li><a href="${escapeHtml(href)}">${label}</a>: ${escapeHtml(what)}</li>`;
}

/**
 * The HTML of GET / while the dashboard is not built: what this server is, why the dashboard is
 * missing (`notice`) and where everything is; no external asset.
 */
export function renderLandingPage(options: { version: string; notice?: string }): string {
  const examples = LANDING_EXAMPLES.map(({ href, what }) =>
    item(href, `<code>${escapeHtml(href)}</code>`, what),
  ).join("\n      ");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>swapgraph</title>
    <link rel="icon" href="data:,">
    <style>${STYLE}</style>
  </head>
  <body>
    <main>
      <h1>swapgraph</h1>
      ${options.notice === undefined ? "" : `<p class="notice" role="alert">${escapeHtml(options.notice).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`}
      <p>An open-source market-data gateway for multi-chain DEX trading. This server indexes
      Uniswap-V2-style swaps from BSC, Ethereum and Polygon over JSON-RPC and serves them as a
      GraphQL API and as a REST facade that is wire-compatible with the public market-data API.</p>

      <h2>Documentation</h2>
      <ul>
      ${item("/docs", "API reference", "the three REST endpoints, their parameters, answers and errors (works offline)")}
      ${item("/openapi.json", "<code>/openapi.json</code>", "the OpenAPI 3.1 document of the REST facade")}
      ${item("/graphql", "GraphQL", "the full API, with GraphiQL in a browser")}
      </ul>

      <h2>REST facade</h2>
      <ul>
      ${examples}
      </ul>

      <h2>Operations</h2>
      <ul>
      ${item("/health", "<code>/health</code>", "200 while the process is alive")}
      ${item("/ready", "<code>/ready</code>", "200 once every network finished its backfill, 503 until then")}
      ${item("/metrics", "<code>/metrics</code>", "Prometheus metrics: indexing state per network, HTTP timings")}
      </ul>

      <footer>swapgraph ${escapeHtml(options.version)} &middot; MIT license</footer>
    </main>
  </body>
</html>
`;
}
