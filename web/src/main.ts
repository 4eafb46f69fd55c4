import type uPlot from "uplot";
import {
  AMOUNT_QUOTE_QUERY,
  type AmountQuote,
  CANDLES_QUERY,
  type Candle,
  type DailyVolume,
  FEED_SUBSCRIPTION,
  type FeedEvent,
  type FeedSwap,
  fetchQuote,
  graphql,
  type NetworkStatus,
  OVERVIEW_QUERY,
  type PoolInfo,
  type QuoteAnswer,
  STATUS_QUERY,
  subscriptionUrl,
  TOKEN_DECIMALS_QUERY,
  type TokenInfo,
} from "./api.js";
import { drawCandleChart, drawDailyBars, TRADERS_COLOR } from "./charts.js";
import { formatDecimal, formatPercent, formatTime, formatUsd, fromUnits, toUnits } from "./format.js";
import "./style.css";

/** Newest first; older rows fall off past this. */
const FEED_ROWS = 50;

/** What the page shows, raw as the API answered it (tests compare these exactly). */
interface DashboardState {
  network: string;
  networks: NetworkStatus[];
  volumes: DailyVolume[];
  tokens: TokenInfo[];
  /** The network's most liquid pools, as the pools query answered. */
  pools: PoolInfo[];
  candles: { token: string; interval: string; rows: Candle[] };
  /** The live feed, newest first. */
  feed: FeedSwap[];
  /** True once the swap feed's stream is open (swaps mined from then on are shown). */
  feedOpen: boolean;
  /** Streams opened so far (reconnections included). */
  feedConnections: number;
  /**
   * The block the feed has every swap up to (the indexed block when the page loaded, then each
   * event's): a new stream resumes after it, so a reconnect misses nothing and repeats nothing.
   */
  feedBlock: string | null;
  quote: QuoteAnswer | null;
  /** Query.quote for the form's amount (exact, along the best route), or its error. */
  amountQuote: AmountQuote | { error: string } | null;
  /** The data the charts were drawn with (uPlot's aligned arrays). */
  plots: { volume?: uPlot.AlignedData; traders?: uPlot.AlignedData; candles?: uPlot.AlignedData };
  /** True once the network's charts are drawn. */
  ready: boolean;
  error: string | null;
}

declare global {
  interface Window {
    __dashboard: DashboardState;
  }
}

const state: DashboardState = {
  network: "",
  networks: [],
  volumes: [],
  tokens: [],
  pools: [],
  candles: { token: "", interval: "HOUR", rows: [] },
  feed: [],
  feedOpen: false,
  feedConnections: 0,
  feedBlock: null,
  quote: null,
  amountQuote: null,
  plots: {},
  ready: false,
  error: null,
};
window.__dashboard = state;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`index.html has no #${id}`);
  return found as T;
}

const networkSelect = element<HTMLSelectElement>("network");
const tokenSelect = element<HTMLSelectElement>("token");
const intervalSelect = element<HTMLSelectElement>("interval");
const statusLine = element<HTMLSpanElement>("status");
const feedBody = element<HTMLTableElement>("feed").tBodies[0] as HTMLTableSectionElement;
const feedEmpty = element<HTMLParagraphElement>("feed-empty");
const feedState = element<HTMLSpanElement>("feed-state");
const quoteForm = element<HTMLFormElement>("quote-form");
const quoteResult = element<HTMLOutputElement>("quote-result");
const poolsBody = element<HTMLTableElement>("pools").tBodies[0] as HTMLTableSectionElement;
const charts: uPlot[] = [];

function option(value: string, label = value): HTMLOptionElement {
  const item = document.createElement("option");
  item.value = value;
  item.textContent = label;
  return item;
}

function showError(where: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  state.error = `${where}: ${message}`;
  statusLine.textContent = state.error;
  statusLine.classList.add("error");
}

// ---- charts -----------------------------------------------------------------------------------

function replaceChart(index: number, chart: uPlot): void {
  charts[index]?.destroy();
  charts[index] = chart;
}

async function loadCandles(): Promise<void> {
  const token = tokenSelect.value;
  const interval = intervalSelect.value;
  const network = state.network;
  const note = element<HTMLParagraphElement>("candle-note");
  if (token === "") {
    note.textContent = "No token with trades on this network yet.";
    return;
  }
  const { candles } = await graphql<{ candles: Candle[] }>(CANDLES_QUERY, { network, token, interval });
  // A later choice won the race: keep what it drew.
  if (network !== state.network || token !== tokenSelect.value || interval !== intervalSelect.value) return;
  state.candles = { token, interval, rows: candles };
  const chart = drawCandleChart(element("candle-chart"), candles);
  replaceChart(2, chart);
  state.plots.candles = chart.data;
  const last = candles.at(-1);
  note.textContent =
    last === undefined
      ? "No trades in this range."
      : `${candles.length} candles · last close $${formatDecimal(last.close ?? "0", 6)} · ${last.tradeCount} trades in the last bucket`;
}

async function loadNetwork(network: string): Promise<void> {
  state.network = network;
  state.ready = false;
  const data = await graphql<{
    networkStatus: { indexedBlock: string | null } | null;
    dailyVolumes: DailyVolume[];
    tokens: { edges: { node: TokenInfo }[] };
    pools: { edges: { node: PoolInfo }[] };
  }>(OVERVIEW_QUERY, { network });
  if (network !== state.network) return;
  state.volumes = data.dailyVolumes;
  state.tokens = data.tokens.edges.map((edge) => edge.node);
  state.pools = data.pools.edges.map((edge) => edge.node);
  state.feedBlock = data.networkStatus?.indexedBlock ?? null;
  renderPools();

  const volume = drawDailyBars(
    element("volume-chart"),
    state.volumes,
    (day) => day.volumeUSD,
    "volume USD",
    (value) => `$${Intl.NumberFormat("en", { notation: "compact" }).format(value)}`,
  );
  replaceChart(0, volume);
  state.plots.volume = volume.data;
  const traders = drawDailyBars(
    element("traders-chart"),
    state.volumes,
    (day) => day.addressCount,
    "traders",
    (value) => String(Math.round(value)),
    TRADERS_COLOR,
  );
  replaceChart(1, traders);
  state.plots.traders = traders.data;

  // Priced tokens first: an unpriced one has no candle prices to draw.
  const priced = state.tokens.filter((token) => token.priceUSD !== null);
  const choices = [...priced, ...state.tokens.filter((token) => token.priceUSD === null)];
  tokenSelect.replaceChildren(
    ...choices.map((token) =>
      option(
        token.address,
        `${token.symbol}${token.priceUSD === null ? "" : ` ($${formatDecimal(token.priceUSD, 4)})`}`,
      ),
    ),
  );
  element<HTMLDataListElement>("token-list").replaceChildren(
    ...state.tokens.map((token) => option(token.symbol)),
  );
  await loadCandles();
  openFeed(network);
  state.ready = true;
}

// ---- pools ------------------------------------------------------------------------------------

function renderPools(): void {
  const usdOrDash = (value: string | null) => (value === null ? "–" : formatUsd(value));
  poolsBody.replaceChildren(
    ...state.pools.map((pool) => {
      const row = document.createElement("tr");
      row.dataset.address = pool.address;
      const cells = [
        `${pool.reserve0.token.symbol || "?"}/${pool.reserve1.token.symbol || "?"}`,
        `${pool.dex} (${pool.feeBps / 100}%)`,
        usdOrDash(pool.liquidityUSD),
        usdOrDash(pool.volumeUSD24h),
        String(pool.tradeCount24h),
      ];
      for (const [i, text] of cells.entries()) {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (i >= 2) cell.className = "num";
        if (i === 0) cell.title = pool.address;
        row.append(cell);
      }
      return row;
    }),
  );
}

// ---- live feed --------------------------------------------------------------------------------

let feed: EventSource | undefined;

function keyOf(swap: FeedSwap): string {
  return `${swap.txHash}:${swap.logIndex}`;
}

function feedRow(swap: FeedSwap): HTMLTableRowElement {
  const row = document.createElement("tr");
  row.dataset.key = keyOf(swap);
  const cells = [
    formatTime(swap.timestamp),
    `${swap.sell.amountDecimal} ${swap.sell.token.symbol}`,
    `${swap.buy.amountDecimal} ${swap.buy.token.symbol}`,
    formatUsd(swap.volumeUSD),
    `${swap.txHash.slice(0, 10)}…`,
  ];
  for (const [i, text] of cells.entries()) {
    const cell = document.createElement("td");
    cell.textContent = text;
    if (i === 3) cell.className = "num";
    if (i === 4) cell.title = swap.txHash;
    row.append(cell);
  }
  return row;
}

function renderFeed(): void {
  feedBody.replaceChildren(...state.feed.map(feedRow));
  feedEmpty.hidden = state.feed.length > 0;
}

function applyFeedEvent(event: FeedEvent): void {
  const block = BigInt(event.blockNumber);
  const known = state.feedBlock === null ? undefined : BigInt(state.feedBlock);
  // ADDED reaches its block; REMOVED withdraws everything above its ancestor.
  if (event.type === "ADDED" ? known === undefined || block > known : known !== undefined && block < known) {
    state.feedBlock = event.blockNumber;
  }
  switch (event.type) {
    case "ADDED":
      // A batch is in chain order: newest first means reversed.
      state.feed = [...[...event.swaps].reverse(), ...state.feed].slice(0, FEED_ROWS);
      break;
    case "REMOVED": {
      // Every swap above the ancestor is gone, listed or not (the server names those it knows).
      const gone = new Set(event.swaps.map(keyOf));
      state.feed = state.feed.filter((swap) => !gone.has(keyOf(swap)) && BigInt(swap.blockNumber) <= block);
      break;
    }
    default: {
      const never: never = event.type;
      throw new Error(`unknown feed event ${String(never)}`);
    }
  }
  renderFeed();
}

// Reconnecting after the server ended the stream (a replica draining for a restart) or refused
// it: 1 s, doubling up to 30 s while it keeps failing; an open stream resets it.
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
let retryMs = RETRY_FIRST_MS;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleReconnect(network: string, why: string): void {
  clearTimeout(retryTimer);
  const waitMs = retryMs;
  retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  feedState.textContent = `${why}, reconnecting in ${Math.round(waitMs / 1000)} s…`;
  retryTimer = setTimeout(() => {
    // Kept rows stay; the new stream resumes after feedBlock, so the gap's swaps come first.
    if (network === state.network) openFeed(network, { keepRows: true });
  }, waitMs);
}

function openFeed(network: string, options: { keepRows?: boolean } = {}): void {
  feed?.close();
  clearTimeout(retryTimer);
  if (options.keepRows !== true) {
    state.feed = [];
    retryMs = RETRY_FIRST_MS;
  }
  state.feedOpen = false;
  renderFeed();
  feedState.textContent = "connecting…";
  const variables = state.feedBlock === null ? { network } : { network, afterBlock: state.feedBlock };
  const source = new EventSource(subscriptionUrl(FEED_SUBSCRIPTION, variables));
  feed = source;
  source.onopen = () => {
    state.feedOpen = true;
    state.feedConnections += 1;
    retryMs = RETRY_FIRST_MS;
    feedState.textContent = "live";
  };
  source.addEventListener("next", (message) => {
    const result = JSON.parse((message as MessageEvent<string>).data) as {
      data?: { swaps: FeedEvent } | null;
      errors?: { message: string }[];
    };
    if (result.errors !== undefined) {
      feedState.textContent = `error: ${result.errors.map((error) => error.message).join("; ")}`;
      // Too far behind to resume (or refused): the stream ends; the next one starts live.
      state.feedBlock = null;
      return;
    }
    if (result.data != null) applyFeedEvent(result.data.swaps);
  });
  source.addEventListener("complete", () => {
    source.close();
    state.feedOpen = false;
    scheduleReconnect(network, "ended by the server");
  });
  source.onerror = () => {
    state.feedOpen = false;
    // EventSource reconnects by itself after a dropped stream (CONNECTING); a refused or failed
    // connection (CLOSED) is this page's to retry.
    if (source.readyState === EventSource.CLOSED) scheduleReconnect(network, "disconnected");
    else feedState.textContent = "reconnecting…";
  };
}

// ---- quote ------------------------------------------------------------------------------------

async function submitQuote(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = new FormData(quoteForm);
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const [network, sellToken, buyToken, amount] = [
    field("network"),
    field("sellToken"),
    field("buyToken"),
    field("amount"),
  ];
  quoteResult.className = "";
  quoteResult.textContent = "…";
  state.amountQuote = null;
  const answer = await fetchQuote(network, sellToken, buyToken);
  state.quote = answer;
  if (answer.result === undefined) {
    quoteResult.className = "error";
    quoteResult.textContent = answer.error ?? `The quote failed (HTTP ${answer.status}).`;
    return;
  }
  const { price, sell_token: sell, buy_token: buy } = answer.result;
  const line = (text: string, className: string) => {
    const item = document.createElement("div");
    item.className = className;
    item.textContent = text;
    return item;
  };
  const priceLine = line(`1 ${sell.symbol} = ${price} ${buy.symbol}`, "price");
  quoteResult.replaceChildren(priceLine);
  // What the amount itself gets: the GraphQL quote of exactly that many smallest units, along its
  // best route, pool fees and price impact included (a larger sale moves the pools further).
  let text: string;
  try {
    const quoted = await quoteAmount(network, sellToken, buyToken, amount);
    state.amountQuote = quoted;
    const impact = formatPercent(quoted.priceImpact);
    text =
      `${amount} ${quoted.sellToken.symbol} → ${formatDecimal(fromUnits(quoted.buyAmount, quoted.buyToken.decimals), 8)} ` +
      `${quoted.buyToken.symbol} (price impact ${impact}%, via ${quoted.route.pools.map((pool) => pool.dex).join(" → ")})`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    state.amountQuote = { error: message };
    text = `${amount} ${sell.symbol}: ${message}`;
  }
  quoteResult.replaceChildren(priceLine, line(text, "muted"));
}

async function quoteAmount(network: string, sell: string, buy: string, amount: string): Promise<AmountQuote> {
  const { token } = await graphql<{ token: { decimals: number } | null }>(TOKEN_DECIMALS_QUERY, {
    network,
    token: sell,
  });
  if (token === null) throw new Error(`${sell} is not a token of ${network}.`);
  const { quote } = await graphql<{ quote: AmountQuote }>(AMOUNT_QUOTE_QUERY, {
    network,
    sell,
    buy,
    amount: toUnits(amount, token.decimals),
  });
  return quote;
}

// ---- start ------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const { status } = await graphql<{ status: NetworkStatus[] }>(STATUS_QUERY);
  state.networks = status;
  const names = status.map((entry) => entry.network);
  const quoteNetwork = quoteForm.elements.namedItem("network") as HTMLSelectElement;
  networkSelect.replaceChildren(...names.map((name) => option(name)));
  quoteNetwork.replaceChildren(...names.map((name) => option(name)));
  const asked = new URLSearchParams(location.search).get("network");
  const network = asked !== null && names.includes(asked) ? asked : (names[0] ?? "");
  networkSelect.value = network;
  quoteNetwork.value = network;
  const serving = status.filter((entry) => entry.serving).length;
  statusLine.textContent = `${serving} of ${status.length} networks serving`;
  if (network === "") return;
  await loadNetwork(network);
}

networkSelect.addEventListener("change", () => {
  (quoteForm.elements.namedItem("network") as HTMLSelectElement).value = networkSelect.value;
  loadNetwork(networkSelect.value).catch((error: unknown) => showError("network", error));
});
tokenSelect.addEventListener("change", () =>
  loadCandles().catch((error: unknown) => showError("candles", error)),
);
intervalSelect.addEventListener("change", () =>
  loadCandles().catch((error: unknown) => showError("candles", error)),
);
quoteForm.addEventListener("submit", (event) =>
  submitQuote(event).catch((error: unknown) => showError("quote", error)),
);
window.addEventListener("resize", () => {
  for (const [i, chart] of charts.entries()) {
    const target = chart.root.parentElement;
    if (target !== null)
      chart.setSize({ width: Math.max(280, target.clientWidth), height: i === 2 ? 210 : 160 });
  }
});
start().catch((error: unknown) => showError("start", error));
