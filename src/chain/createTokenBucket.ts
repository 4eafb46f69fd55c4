import { countEvent } from "../lib/countEvent.js";
import { type RateLimitBucket, takeRateLimitToken } from "../lib/takeRateLimitToken.js";

/**
 * Who a call is for, in the order a URL's budget serves them: the head poll (and the tip read
 * that checks it), the backfill and the range reads, then the lookups callers trigger.
 */
export type RpcLane = "head" | "backfill" | "lookup";

/** What a URL's pacer knows now (for logs, /metrics and the network status). */
export interface PaceState {
  /** The URL's label (index and host, never its path: API keys live there). */
  readonly label: string;
  readonly network: string;
  /** Calls a second the pacer lets through now; undefined: unpaced (no limit met, no ceiling). */
  readonly perSecond: number | undefined;
  /** True from the provider's first limit answer until it has been quiet for RECOVER_MS. */
  readonly limited: boolean;
}

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

/**
 * Creates a URL's pacer. `ceiling` (calls a second, 0: none) is the configured
 * rpc.requestsPerSecond: the pace never exceeds it; below it, the pace is learned from the
 * provider's limit answers. `burst` calls may go at once after a quiet spell.
 */
export function createTokenBucket(ceiling: number, burst: number, options: PaceOptions = {}): TokenBucket {
  const { log } = options;
  const label = options.label ?? "rpc";
  const network = options.network ?? "";
  const max = ceiling > 0 ? ceiling : Number.POSITIVE_INFINITY;
  let learned: number | undefined;
  let limitedAtPace = 0;
  let limited = false;
  let pausedUntil = 0;
  let lastDecreaseAt = Number.NEGATIVE_INFINITY;
  let lastLimitAt = Number.NEGATIVE_INFINITY;
  let lastIncreaseAt = 0;
  let lastFullAt = Number.NEGATIVE_INFINITY;
  let lookupCount = 0;
  const bucket: RateLimitBucket = { tokens: burst, at: performance.now() };
  const sent: number[] = [];
  const waiters: Record<RpcLane, { go: () => void }[]> = { head: [], backfill: [], lookup: [] };
  const inFlight: Record<RpcLane, number> = { head: 0, backfill: 0, lookup: 0 };
  let timer: NodeJS.Timeout | undefined;

  const pace = () => Math.min(max, learned ?? Number.POSITIVE_INFINITY);
  const limitOf = (perSecond: number) => ({
    perSecond,
    burst: learned === undefined || learned >= max ? burst : Math.max(1, Math.ceil(perSecond / 4)),
  });
  const lookupMayGo = () =>
    waiters.head.length === 0 && inFlight.head === 0 && inFlight.lookup < LOOKUPS_IN_FLIGHT;

  /** The lane whose first waiter goes next, if any may go (lanes first, lookups gated). */
  const nextLane = (): RpcLane | undefined => {
    if (waiters.head.length > 0) return "head";
    const lookup = waiters.lookup.length > 0 && lookupMayGo();
    if (waiters.backfill.length > 0) {
      if (lookup && lookupCount % LOOKUP_TURN === LOOKUP_TURN - 1) return "lookup";
      return "backfill";
    }
    return lookup ? "lookup" : undefined;
  };

  /** A token for a call now, if the pace and a pause allow; else the ms to wait. */
  const tryToken = (now: number): number | undefined => {
    if (now < pausedUntil) return pausedUntil - now;
    const perSecond = pace();
    if (perSecond === Number.POSITIVE_INFINITY) return undefined;
    const wait = takeRateLimitToken(bucket, now, limitOf(perSecond));
    if (wait !== undefined) lastFullAt = now;
    return wait;
  };

  const letOut = (lane: RpcLane, now: number) => {
    inFlight[lane]++;
    if (lane === "lookup") lookupCount++;
    else if (waiters.lookup.length > 0) lookupCount++;
    sent.push(now);
    while (sent.length > 0 && sent[0]! < now - 1_000) sent.shift();
  };

  // Releases every waiter a token is there for (in one tick, so they still share a JSON-RPC
  // batch), then sleeps until the next token; lookups held by their gate wait for a `done`.
  const drain = () => {
    timer = undefined;
    for (;;) {
      const lane = nextLane();
      if (lane === undefined) return;
      const now = performance.now();
      const wait = tryToken(now);
      if (wait !== undefined) {
        timer = setTimeout(drain, wait);
        return;
      }
      letOut(lane, now);
      waiters[lane].shift()?.go();
    }
  };

  const state = {
    label,
    network,
    get perSecond() {
      const perSecond = pace();
      return perSecond === Number.POSITIVE_INFINITY ? undefined : perSecond;
    },
    get limited() {
      return limited;
    },
  };

  return {
    state,
    take(signal, lane = "backfill") {
      const idle = waiters.head.length + waiters.backfill.length + waiters.lookup.length === 0;
      if (idle && (lane !== "lookup" || lookupMayGo())) {
        const now = performance.now();
        if (tryToken(now) === undefined) {
          letOut(lane, now);
          return Promise.resolve();
        }
      }
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const queue = waiters[lane];
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
        if (timer === undefined) drain();
      });
    },
    done(lane = "backfill") {
      inFlight[lane] = Math.max(0, inFlight[lane] - 1);
      if (timer === undefined && LANES.some((l) => waiters[l].length > 0)) drain();
    },
    answered() {
      const now = performance.now();
      if (limited && now - lastLimitAt >= RECOVER_MS) {
        limited = false;
        (log?.info ?? log?.warn)?.call(
          log,
          { url: label, network, callsPerSecond: round(pace()) },
          "rpc url no longer rate limited; keeping the learned pace as it grows",
        );
      }
      if (learned === undefined) return;
      // Probe upwards only while the pace held calls back: an idle URL learns nothing.
      if (now - lastIncreaseAt < 1_000 || now - lastDecreaseAt < 1_000 || now - lastFullAt > 1_000) return;
      lastIncreaseAt = now;
      learned += Math.max(MIN_INCREASE, learned * INCREASE_SHARE);
      if (learned >= max || (!limited && learned > limitedAtPace * UNPACE_FACTOR)) learned = undefined;
    },
    limited(retryAfterMs) {
      const now = performance.now();
      lastLimitAt = now;
      pausedUntil = Math.max(pausedUntil, now + Math.min(retryAfterMs ?? DEFAULT_PAUSE_MS, MAX_PAUSE_MS));
      bucket.tokens = 0;
      bucket.at = now;
      if (now - lastDecreaseAt >= SAME_OVERRUN_MS) {
        lastDecreaseAt = now;
        while (sent.length > 0 && sent[0]! < now - 1_000) sent.shift();
        // From unpaced, the pace it was sending at is the first guess of the limit (a few calls
        // a second tell little: a limit met at low demand is no reason to crawl).
        const perSecond = pace();
        const base =
          perSecond === Number.POSITIVE_INFINITY ? Math.max(sent.length, FIRST_GUESS_MIN) : perSecond;
        learned = Math.max(MIN_PER_SECOND, base * DECREASE);
        limitedAtPace = learned;
      }
      if (!limited) {
        limited = true;
        countEvent("rpc_rate_limit_episodes", { network });
        log?.warn(
          { url: label, network, callsPerSecond: round(pace()) },
          "rpc url is rate limited; pacing its calls to the rate it accepts",
        );
      }
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      if (LANES.some((l) => waiters[l].length > 0)) drain();
    },
    waitMs() {
      const now = performance.now();
      if (now < pausedUntil) return pausedUntil - now;
      const perSecond = pace();
      if (perSecond === Number.POSITIVE_INFINITY) return 0;
      const queued = waiters.head.length + waiters.backfill.length;
      const tokens = Math.min(
        limitOf(perSecond).burst,
        bucket.tokens + ((now - bucket.at) * perSecond) / 1000,
      );
      return Math.max(0, ((queued + 1 - tokens) * 1000) / perSecond);
    },
  };
}

function round(perSecond: number): number | null {
  return perSecond === Number.POSITIVE_INFINITY ? null : Math.round(perSecond * 10) / 10;
}
