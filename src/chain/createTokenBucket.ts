import { countEvent } from "../lib/countEvent.js";
import type { PaceState } from "../lib/rpcPaces.js";
import { type RateLimitBucket, takeRateLimitToken } from "../lib/takeRateLimitToken.js";

/**
 * Who a call is for, in the order a URL's budget serves them: the head poll (and the tip read
 * that checks it), the backfill and the range reads, then the lookups callers trigger.
 */
export type RpcLane = "head" | "backfill" | "lookup";

/**
 * A URL's pacer: a token bucket whose rate follows the provider's answers, serving waiting calls
 * lane by lane. `take` resolves once a call may go out (in arrival order within its lane); the
 * caller reports the answer with `answered` or `limited` and ends the call with `done`.
 */
export interface TokenBucket {
  take(signal?: AbortSignal, lane?: RpcLane): Promise<void>;
  /** The call of `lane` that `take` let out has its answer (or failed): frees its in-flight slot. */
  done(lane?: RpcLane): void;
  /** The provider answered a call (no limit): the pace may probe upwards. */
  answered(): void;
  /** The provider refused a call for its rate limit (or overload): slow down at once, pause as asked. */
  limited(retryAfterMs: number | undefined): void;
  /** Ms until a call of the backfill lane could go out (0 when a token is there): spreads calls over URLs. */
  waitMs(): number;
  readonly state: PaceState;
}

/** What a pacer needs beyond its ceiling: names for its log lines and metrics, and the logger. */
export interface PaceOptions {
  label?: string;
  network?: string;
  log?: {
    warn(details: Record<string, unknown>, message: string): void;
    info?(details: Record<string, unknown>, message: string): void;
  };
}

// The pace never falls below this: a provider that limits harder is still asked (Retry-After
// pauses stay honoured), and at 1 call a second a backfill still moves.
const MIN_PER_SECOND = 1;
// The least first guess of a limit, in calls a second before the decrease.
const FIRST_GUESS_MIN = 10;
// Multiplicative decrease on a limit answer, additive increase (a tenth of the pace, at least
// half a call) for every second the pace was used to the full without one: a sawtooth just
// under the provider's limit (AIMD, as TCP finds a link's capacity).
const DECREASE = 0.7;
const INCREASE_SHARE = 0.1;
const MIN_INCREASE = 0.5;
// Limit answers within this long of a decrease are the same overrun (calls already in flight).
const SAME_OVERRUN_MS = 1_000;
// Without a Retry-After, a limit answer pauses the URL this long; none pauses it longer than the cap.
const DEFAULT_PAUSE_MS = 1_000;
const MAX_PAUSE_MS = 60_000;
// Quiet this long after the last limit answer: the URL is no longer limited (one log line).
const RECOVER_MS = 30_000;
// A learned pace that grew past this many times the pace it was limited at is dropped (unpaced).
const UNPACE_FACTOR = 8;
// Lookups a URL serves at once, and only while no head poll waits or is in flight: a burst of
// lookups never queues in front of the head at the node.
const LOOKUPS_IN_FLIGHT = 4;
// While backfill and lookups both wait, one token in this many goes to a lookup: lookups are
// last, never starved.
const LOOKUP_TURN = 4;

const LANES: readonly RpcLane[] = ["head", "backfill", "lookup"];

/** A pacer's settings and the state its steps share. */
interface Pacer {
  readonly label: string;
  readonly network: string;
  readonly log: PaceOptions["log"];
  readonly max: number;
  readonly burst: number;
  learned: number | undefined;
  limitedAtPace: number;
  limited: boolean;
  pausedUntil: number;
  lastDecreaseAt: number;
  lastLimitAt: number;
  lastIncreaseAt: number;
  lastFullAt: number;
  lookupCount: number;
  readonly bucket: RateLimitBucket;
  readonly sent: number[];
  readonly waiters: Record<RpcLane, { go: () => void }[]>;
  readonly inFlight: Record<RpcLane, number>;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Creates a URL's pacer. `ceiling` (calls a second, 0: none) is the configured
 * rpc.requestsPerSecond: the pace never exceeds it; below it, the pace is learned from the
 * provider's limit answers. `burst` calls may go at once after a quiet spell.
 */
export function createTokenBucket(ceiling: number, burst: number, options: PaceOptions = {}): TokenBucket {
  const p: Pacer = {
    label: options.label ?? "rpc",
    network: options.network ?? "",
    log: options.log,
    max: ceiling > 0 ? ceiling : Number.POSITIVE_INFINITY,
    burst,
    learned: undefined,
    limitedAtPace: 0,
    limited: false,
    pausedUntil: 0,
    lastDecreaseAt: Number.NEGATIVE_INFINITY,
    lastLimitAt: Number.NEGATIVE_INFINITY,
    lastIncreaseAt: 0,
    lastFullAt: Number.NEGATIVE_INFINITY,
    lookupCount: 0,
    bucket: { tokens: burst, at: performance.now() },
    sent: [],
    waiters: { head: [], backfill: [], lookup: [] },
    inFlight: { head: 0, backfill: 0, lookup: 0 },
    timer: undefined,
  };

  const state = {
    label: p.label,
    network: p.network,
    get perSecond() {
      const perSecond = pace(p);
      return perSecond === Number.POSITIVE_INFINITY ? undefined : perSecond;
    },
    get limited() {
      return p.limited;
    },
  };

  return {
    state,
    take(signal, lane = "backfill") {
      const { waiters } = p;
      const idle = waiters.head.length + waiters.backfill.length + waiters.lookup.length === 0;
      if (idle && (lane !== "lookup" || lookupMayGo(p))) {
        const now = performance.now();
        if (tryToken(p, now) === undefined) {
          letOut(p, lane, now);
          return Promise.resolve();
        }
      }
      return enqueue(p, lane, signal);
    },
    done(lane = "backfill") {
      p.inFlight[lane] = Math.max(0, p.inFlight[lane] - 1);
      if (p.timer === undefined && LANES.some((l) => p.waiters[l].length > 0)) drain(p);
    },
    answered() {
      onAnswered(p);
    },
    limited(retryAfterMs) {
      onLimited(p, retryAfterMs);
    },
    waitMs() {
      return waitMsOf(p);
    },
  };
}

function pace(p: Pacer): number {
  return Math.min(p.max, p.learned ?? Number.POSITIVE_INFINITY);
}

function limitOf(p: Pacer, perSecond: number): { perSecond: number; burst: number } {
  return {
    perSecond,
    burst: p.learned === undefined || p.learned >= p.max ? p.burst : Math.max(1, Math.ceil(perSecond / 4)),
  };
}

function lookupMayGo(p: Pacer): boolean {
  return p.waiters.head.length === 0 && p.inFlight.head === 0 && p.inFlight.lookup < LOOKUPS_IN_FLIGHT;
}

/** The lane whose first waiter goes next, if any may go (lanes first, lookups gated). */
function nextLane(p: Pacer): RpcLane | undefined {
  if (p.waiters.head.length > 0) return "head";
  const lookup = p.waiters.lookup.length > 0 && lookupMayGo(p);
  if (p.waiters.backfill.length > 0) {
    if (lookup && p.lookupCount % LOOKUP_TURN === LOOKUP_TURN - 1) return "lookup";
    return "backfill";
  }
  return lookup ? "lookup" : undefined;
}

/** A token for a call now, if the pace and a pause allow; else the ms to wait. */
function tryToken(p: Pacer, now: number): number | undefined {
  if (now < p.pausedUntil) return p.pausedUntil - now;
  const perSecond = pace(p);
  if (perSecond === Number.POSITIVE_INFINITY) return undefined;
  const wait = takeRateLimitToken(p.bucket, now, limitOf(p, perSecond));
  if (wait !== undefined) p.lastFullAt = now;
  return wait;
}

function letOut(p: Pacer, lane: RpcLane, now: number): void {
  p.inFlight[lane]++;
  if (lane === "lookup") p.lookupCount++;
  else if (p.waiters.lookup.length > 0) p.lookupCount++;
  p.sent.push(now);
  while (p.sent.length > 0 && p.sent[0]! < now - 1_000) p.sent.shift();
}

// Releases every waiter a token is there for (in one tick, so they still share a JSON-RPC
// batch), then sleeps until the next token; lookups held by their gate wait for a `done`.
function drain(p: Pacer): void {
  p.timer = undefined;
  for (;;) {
    const lane = nextLane(p);
    if (lane === undefined) return;
    const now = performance.now();
    const wait = tryToken(p, now);
    if (wait !== undefined) {
      p.timer = setTimeout(() => drain(p), wait);
      return;
    }
    letOut(p, lane, now);
    p.waiters[lane].shift()?.go();
  }
}

/** Queues a call of `lane` until `drain` lets it out (or `signal` aborts it). */
function enqueue(p: Pacer, lane: RpcLane, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const queue = p.waiters[lane];
    const onAbort = () => {
      const at = queue.indexOf(waiter);
      if (at >= 0) queue.splice(at, 1);
      reject(signal?.reason);
    };
    const waiter = {
      go: () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
    };
    queue.push(waiter);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (p.timer === undefined) drain(p);
  });
}

function onAnswered(p: Pacer): void {
  const now = performance.now();
  if (p.limited && now - p.lastLimitAt >= RECOVER_MS) {
    p.limited = false;
    const { log } = p;
    (log?.info ?? log?.warn)?.call(
      log,
      { url: p.label, network: p.network, callsPerSecond: round(pace(p)) },
      "rpc url no longer rate limited; keeping the learned pace as it grows",
    );
  }
  if (p.learned === undefined) return;
  // Probe upwards only while the pace held calls back: an idle URL learns nothing.
  if (now - p.lastIncreaseAt < 1_000 || now - p.lastDecreaseAt < 1_000 || now - p.lastFullAt > 1_000) return;
  p.lastIncreaseAt = now;
  p.learned += Math.max(MIN_INCREASE, p.learned * INCREASE_SHARE);
  if (p.learned >= p.max || (!p.limited && p.learned > p.limitedAtPace * UNPACE_FACTOR))
    p.learned = undefined;
}

function onLimited(p: Pacer, retryAfterMs: number | undefined): void {
  const now = performance.now();
  p.lastLimitAt = now;
  p.pausedUntil = Math.max(p.pausedUntil, now + Math.min(retryAfterMs ?? DEFAULT_PAUSE_MS, MAX_PAUSE_MS));
  p.bucket.tokens = 0;
  p.bucket.at = now;
  if (now - p.lastDecreaseAt >= SAME_OVERRUN_MS) {
    p.lastDecreaseAt = now;
    while (p.sent.length > 0 && p.sent[0]! < now - 1_000) p.sent.shift();
    // From unpaced, the pace it was sending at is the first guess of the limit (a few calls
    // a second tell little: a limit met at low demand is no reason to crawl).
    const perSecond = pace(p);
    const base =
      perSecond === Number.POSITIVE_INFINITY ? Math.max(p.sent.length, FIRST_GUESS_MIN) : perSecond;
    p.learned = Math.max(MIN_PER_SECOND, base * DECREASE);
    p.limitedAtPace = p.learned;
  }
  if (!p.limited) {
    p.limited = true;
    countEvent("rpc_rate_limit_episodes", { network: p.network });
    p.log?.warn(
      { url: p.label, network: p.network, callsPerSecond: round(pace(p)) },
      "rpc url is rate limited; pacing its calls to the rate it accepts",
    );
  }
  if (p.timer !== undefined) {
    clearTimeout(p.timer);
    p.timer = undefined;
  }
  if (LANES.some((l) => p.waiters[l].length > 0)) drain(p);
}

function waitMsOf(p: Pacer): number {
  const now = performance.now();
  if (now < p.pausedUntil) return p.pausedUntil - now;
  const perSecond = pace(p);
  if (perSecond === Number.POSITIVE_INFINITY) return 0;
  const queued = p.waiters.head.length + p.waiters.backfill.length;
  const tokens = Math.min(
    limitOf(p, perSecond).burst,
    p.bucket.tokens + ((now - p.bucket.at) * perSecond) / 1000,
  );
  return Math.max(0, ((queued + 1 - tokens) * 1000) / perSecond);
}

function round(perSecond: number): number | null {
  return perSecond === Number.POSITIVE_INFINITY ? null : Math.round(perSecond * 10) / 10;
}
