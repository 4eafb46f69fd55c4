import type { ProviderUsage } from "@swapgraph/devnet/emulator/createUsageMeter.js";
import { type RoundSummary, summarizeRounds } from "./summarizeRounds.js";

/** One line of the side-by-side table. */
export interface PonderRow {
  chain: string;
  metric: string;
  swapgraph: string;
  Ponder: string;
  "Ponder / swapgraph": string;
  aim: string;
}

/** What one indexer cost on one chain in one round, from process start to /ready. */
export interface Side {
  readyMs: number;
  usage: ProviderUsage;
  indexed: string;
}

/** Ponder's side: /ready comes at the finalized block; the rest of the head is indexed after it. */
export interface PonderSide extends Side {
  /** Process start to every Swap up to the head stored (NaN: rows missing), and the RPC work until then. */
  completeMs: number;
  completeUsage: ProviderUsage;
}

/**
 * The table of one chain from its rounds: each time the median and spread (min-max) of each side
 * over the rounds, the ratio of the medians, and beside the time ratios the aim (`aimRatio`, the
 * issue's "at least Nx") met or not; calls, compute units and bytes as medians (they hardly vary).
 */
export function buildPonderRows(
  chain: string,
  swapgraph: readonly Side[],
  ponder: readonly PonderSide[],
  expectedSwaps: number,
  aimRatio: number | undefined,
): PonderRow[] {
  const row = (
    metric: string,
    a: (side: Side) => number,
    b: (side: PonderSide) => number,
    show: (value: number) => string,
    options: { spread?: boolean; aim?: (ratio: number, sa: RoundSummary) => string } = {},
  ): PonderRow => {
    const sa = summarizeRounds(swapgraph.map(a));
    const sb = summarizeRounds(ponder.map(b));
    const ratio = sa.median > 0 && Number.isFinite(sb.median) ? sb.median / sa.median : Number.NaN;
    const cell = (s: RoundSummary) => {
      if (Number.isNaN(s.median)) return "never (rows missing)";
      const spread = options.spread === false || s.min === s.max ? "" : ` (${show(s.min)}-${show(s.max)})`;
      const missing = s.missing === 0 ? "" : `, rows missing in ${s.missing} round(s)`;
      return `${show(s.median)}${spread}${missing}`;
    };
    return {
      chain,
      metric,
      swapgraph: cell(sa),
      Ponder: cell(sb),
      "Ponder / swapgraph": Number.isNaN(ratio) ? "n/a" : ratio.toFixed(2),
      aim: options.aim?.(ratio, sa) ?? "",
    };
  };
  const count = (value: number) => Math.round(value).toLocaleString("en-US");
  const mb = (value: number) => (value / 1024 / 1024).toFixed(2);
  const fixed = (value: number) => value.toFixed(1);
  const s = (ms: number) => ms / 1000;
  const times = { aim: (ratio: number) => timeAim(ratio, aimRatio) };
  const counts = { spread: false };
  const ownMs = (side: Side) => side.readyMs - side.usage.nodeBusyMs;
  const ponderOwnMs = (side: PonderSide) => side.completeMs - side.completeUsage.nodeBusyMs;
  const last = { swapgraph: swapgraph[swapgraph.length - 1]!, ponder: ponder[ponder.length - 1]! };
  return [
    row(
      "start to /ready (s)",
      (x) => s(x.readyMs),
      (x) => s(x.readyMs),
      fixed,
      times,
    ),
    row(
      "start to every swap stored (s)",
      (x) => s(x.readyMs),
      (x) => s(x.completeMs),
      fixed,
      times,
    ),
    // The wall time during which at least one request was at the node (overlaps counted once).
    row(
      "of it, the node answering (s)",
      (x) => s(x.usage.nodeBusyMs),
      (x) => s(x.completeUsage.nodeBusyMs),
      fixed,
    ),
    row(
      "own time (start to ready minus the node answering) (s)",
      (x) => s(ownMs(x)),
      (x) => s(ponderOwnMs(x)),
      fixed,
    ),
    {
      ...row(
        "own time / node time",
        (x) => ownMs(x) / x.usage.nodeBusyMs,
        (x) => ponderOwnMs(x) / x.completeUsage.nodeBusyMs,
        (value) => value.toFixed(2),
        { aim: (_, sa) => `swapgraph at most 1: ${sa.median <= 1 ? "met" : "not met"}` },
      ),
      "Ponder / swapgraph": "",
    },
    // What no swapgraph could beat on this node: Ponder's time to every swap against the node's
    // time answering swapgraph's reads alone (a swapgraph with no time of its own).
    {
      chain,
      metric: "the node's bound: Ponder to every swap / the node answering swapgraph",
      swapgraph: "",
      Ponder: "",
      "Ponder / swapgraph": (() => {
        const bound =
          summarizeRounds(ponder.map((x) => x.completeMs)).median /
          summarizeRounds(swapgraph.map((x) => x.usage.nodeBusyMs)).median;
        return Number.isFinite(bound) ? bound.toFixed(2) : "n/a";
      })(),
      aim: aimRatio === undefined ? "" : `the aim (${aimRatio}x) is reachable only below this`,
    },
    row(
      "the node answering until /ready (s)",
      (x) => s(x.usage.nodeBusyMs),
      (x) => s(x.usage.nodeBusyMs),
      fixed,
    ),
    // RPC work (the same every round: medians without spreads): to every swap stored, then the
    // same meters up to Ponder's /ready.
    ...RPC_METERS.map(({ metric, of, bytes }) =>
      row(
        metric,
        (x) => of(x.usage),
        (x) => of(x.completeUsage),
        bytes ? mb : count,
        counts,
      ),
    ),
    ...RPC_METERS.filter(({ untilReady }) => untilReady).map(({ metric, of, bytes }) =>
      row(
        metric.replace(/( \(MB\))?$/, ` until Ponder's /ready$1`),
        (x) => of(x.usage),
        (x) => of(x.usage),
        bytes ? mb : count,
        counts,
      ),
    ),
    {
      chain,
      metric: "indexed",
      swapgraph: distinct(swapgraph.map((side) => side.indexed)),
      Ponder: `${distinct(ponder.map((side) => side.indexed))} (chain: ${expectedSwaps} Swap logs)`,
      "Ponder / swapgraph": "",
      aim: "",
    },
    {
      chain,
      metric: "calls by method (last round)",
      swapgraph: methods(last.swapgraph.usage),
      Ponder: methods(last.ponder.completeUsage),
      "Ponder / swapgraph": "",
      aim: "",
    },
  ];
}

/** The emulator's meters the table prints, each for both sides. */
const RPC_METERS: readonly {
  metric: string;
  of: (usage: ProviderUsage) => number;
  bytes: boolean;
  untilReady: boolean;
}[] = [
  { metric: "RPC calls", of: (u) => u.total.calls, bytes: false, untilReady: true },
  { metric: "compute units", of: (u) => u.total.computeUnits, bytes: false, untilReady: true },
  { metric: "JSON bytes (MB)", of: (u) => u.total.bytes, bytes: true, untilReady: true },
  { metric: "bytes on the wire, gzip (MB)", of: (u) => u.wireBytes, bytes: true, untilReady: false },
];

function timeAim(ratio: number, aimRatio: number | undefined): string {
  if (aimRatio === undefined) return "";
  return `at least ${aimRatio}x: ${ratio >= aimRatio ? "met" : "not met"}`;
}

/** The rounds' texts, each once, in order. */
function distinct(texts: readonly string[]): string {
  return [...new Set(texts)].join(" | ");
}

function methods(usage: ProviderUsage): string {
  return [...usage.byMethod]
    .sort((x, y) => y[1].calls - x[1].calls)
    .map(([method, u]) => `${method} ${u.calls}`)
    .join(", ");
}
