import { ClientBudgetError } from "../../errors.js";
import { countEvent } from "../../lib/countEvent.js";
import { createLruCache } from "../../lib/createLruCache.js";
import { type CostBucket, reserveCost } from "./reserveCost.js";

/** Options of createClientBudget: what one client may keep the server busy with. */
export interface ClientBudgetOptions {
  /** Query cost a client may spend per second, sustained (computeQueryCost units); 0: no cost budget. */
  costPerSecond: number;
  /** Query cost a client may spend at once after a pause (the bucket's size). */
  costBurst: number;
  /**
   * Query cost a client may spend per second while it is alone: no other client started an
   * operation of `presenceCost` or more in the last `presenceMs`. The server's spare capacity goes to whoever uses it (one
   * client paging history reads at the speed the server renders), and the fair share
   * `costPerSecond` comes back as soon as anyone else needs the server. 0 or absent: always
   * `costPerSecond`.
   */
  aloneCostPerSecond?: number;
  /** How long after its last operation another client still counts as present (default 5,000 ms). */
  presenceMs?: number;
  /**
   * Cost from which an operation makes its client present (default 10,000: ten seconds of the
   * default fair share). Cheaper operations (a quote, a token, a small page) take too little of
   * the server to compete with a reader, so a public server's steady trickle of them does not
   * throttle the one client paging history; every operation is still charged to its own client.
   */
  presenceCost?: number;
  /** Operations of one client executing at once; 0: no bound. */
  concurrency: number;
  /** Operations of one client waiting at most (for its budget or a free slot); more are refused. */
  queueLength: number;
  /**
   * Longest an operation waits for its client's budget; one that would wait longer is refused at
   * once, or after this long when its client ignored its last Retry-After.
   */
  maxWaitMs: number;
  /** Clients remembered at most, least recently seen forgotten first (default 100,000). */
  maxClients?: number;
  /** Clock in ms (tests); default performance.now(). */
  now?: () => number;
  /** Called on each decision (tests and diagnostics); the metric counts them anyway. */
  onEvent?: (event: ClientBudgetEvent) => void;
}

/**
 * One decision about one operation: it must wait ("queue", for `waitMs` of budget and then a
 * free slot), it starts ("start", after `waitedMs`), or it is refused ("refuse", with its 429).
 * @internal exported for tests, which type what they record with it.
 */
export type ClientBudgetEvent =
  | { type: "queue"; client: string; cost: number; waitMs: number }
  | { type: "start"; client: string; cost: number; waitedMs: number }
  | {
      type: "refuse";
      client: string;
      cost: number;
      reason: "cost" | "queue";
      retryAfterSeconds: number;
      /** How long the refusal was held first (a client that ignored its last Retry-After). */
      heldMs: number;
    };

/** Per-client fairness: a token bucket of query cost and a bound on operations running at once. */
export interface ClientBudget {
  /**
   * Waits until `client` may run an operation of `cost`, charges it and resolves to the function
   * that gives its slot back (call it once the operation is done; later calls do nothing).
   * `holdSlot: false` charges without taking a slot (subscriptions). Throws ClientBudgetError
   * when the operation would wait longer than `maxWaitMs` or the client's queue is full; when
   * the client ignored its last Retry-After, only after holding the operation `maxWaitMs`.
   */
  admit(client: string, cost: number, options?: { holdSlot?: boolean }): Promise<() => void>;
}

interface ClientState {
  bucket: CostBucket;
  running: number;
  /** Operations waiting (for the budget, a slot, or a held refusal). */
  waiting: number;
  /** Until when the client's last refusal asked it to stay away (clock ms). */
  retryAtMs: number;
  /** Operations waiting for a slot, first come first served: each is handed the slot it waits for. */
  slotQueue: (() => void)[];
}

const NOTHING = () => {};

/**
 * Creates the per-client budget. A client that spends its budget slows itself: its next
 * operation waits until its bucket allows (up to `maxWaitMs`, else a 429 with Retry-After), and
 * beyond `concurrency` its operations wait in a FIFO of `queueLength`; one that resends before
 * its Retry-After has the refusal held for `maxWaitMs` first. Other clients' buckets and slots
 * are their own. A client alone on the server (aloneCostPerSecond) refills at the higher rate.
 * State is kept for at most `maxClients` clients; a forgotten client starts again with a full
 * bucket (its operations in flight keep their own state).
 */
export function createClientBudget(options: ClientBudgetOptions): ClientBudget {
  const { costPerSecond, concurrency, queueLength, maxWaitMs } = options;
  const burst = Math.max(1, options.costBurst);
  const shared = { ratePerSecond: costPerSecond, burst };
  const alone = { ratePerSecond: Math.max(costPerSecond, options.aloneCostPerSecond ?? 0), burst };
  const presenceMs = options.presenceMs ?? 5_000;
  const presenceCost = options.presenceCost ?? 10_000;
  const now = options.now ?? (() => performance.now());
  const emit = options.onEvent ?? NOTHING;
  const clients = createLruCache<ClientState>({ maxEntries: options.maxClients ?? 100_000 });
  // The two latest clients to start an operation, each with its latest start: enough to say when
  // any client other than a given one last started one.
  let latest = { client: "", atMs: Number.NEGATIVE_INFINITY };
  let previous = { client: "", atMs: Number.NEGATIVE_INFINITY };

  // The bucket's refill for `client` now, and `client` recorded as present when `cost` competes.
  function limitsFor(client: string, nowMs: number, cost: number) {
    const othersAtMs = latest.client === client ? previous.atMs : latest.atMs;
    if (cost < presenceCost) return nowMs - othersAtMs > presenceMs ? alone : shared;
    if (latest.client === client) latest.atMs = nowMs;
    else {
      previous = latest;
      latest = { client, atMs: nowMs };
    }
    return nowMs - othersAtMs > presenceMs ? alone : shared;
  }

  function stateOf(client: string): ClientState {
    let state = clients.get(client);
    if (state === undefined) {
      state = {
        bucket: { level: burst, atMs: now() },
        running: 0,
        waiting: 0,
        retryAtMs: 0,
        slotQueue: [],
      };
      clients.set(client, state);
    }
    return state;
  }

  // A refusal answered at once costs the server a whole request and the client nothing: one
  // that resends without pause would keep the server busy with refusals. A client that did not
  // wait out its last Retry-After has the refusal held for the bounded wait first, in its queue.
  async function refuse(
    state: ClientState,
    client: string,
    cost: number,
    reason: "cost" | "queue",
    waitMs: number,
  ): Promise<never> {
    let heldMs = 0;
    if (now() < state.retryAtMs && maxWaitMs > 0 && state.waiting < queueLength) {
      heldMs = maxWaitMs;
      state.waiting++;
      try {
        await new Promise((resolve) => setTimeout(resolve, heldMs));
      } finally {
        state.waiting--;
      }
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((waitMs - heldMs) / 1000));
    state.retryAtMs = Math.max(state.retryAtMs, now() + retryAfterSeconds * 1000);
    countEvent("graphql_client_budget", { outcome: "refused" });
    emit({ type: "refuse", client, cost, reason, retryAfterSeconds, heldMs });
    throw new ClientBudgetError({ reason, costPerSecond, queueLength, retryAfterSeconds });
  }

  return {
    async admit(client, cost, admitOptions = {}) {
      const state = stateOf(client);
      const nowMs = now();
      // An operation of `presenceCost` or more marks its client present, a refused one too.
      const limits = limitsFor(client, nowMs, cost);
      const holdsSlot = concurrency > 0 && admitOptions.holdSlot !== false;
      const slotFree = !holdsSlot || (state.running < concurrency && state.slotQueue.length === 0);
      const queueFull = state.waiting >= queueLength;
      // Refused before anything is charged: it could only wait, and there is no room to.
      if (queueFull && !slotFree) return refuse(state, client, cost, "queue", 0);
      let waitMs = 0;
      if (costPerSecond > 0) {
        const reservation = reserveCost(state.bucket, cost, nowMs, limits, queueFull ? 0 : maxWaitMs);
        if (!reservation.admitted) {
          const reason = reservation.waitMs > maxWaitMs ? "cost" : "queue";
          return refuse(state, client, cost, reason, reservation.waitMs);
        }
        waitMs = reservation.waitMs;
      }
      if (waitMs === 0 && slotFree) {
        if (holdsSlot) state.running++;
        countEvent("graphql_client_budget", { outcome: "immediate" });
        emit({ type: "start", client, cost, waitedMs: 0 });
        return holdsSlot ? releaseOf(state) : NOTHING;
      }
      const queuedAt = now();
      state.waiting++;
      countEvent("graphql_client_budget", { outcome: "queued" });
      emit({ type: "queue", client, cost, waitMs });
      try {
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        if (holdsSlot) {
          if (state.running < concurrency && state.slotQueue.length === 0) state.running++;
          else await new Promise<void>((resolve) => state.slotQueue.push(resolve));
        }
      } finally {
        state.waiting--;
      }
      emit({ type: "start", client, cost, waitedMs: now() - queuedAt });
      return holdsSlot ? releaseOf(state) : NOTHING;
    },
  };
}

/** The function that gives `state`'s slot back, once: to its first waiter, else to the count. */
function releaseOf(state: ClientState): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = state.slotQueue.shift();
    // The slot passes to the first waiter as it is: `running` stays.
    if (next !== undefined) next();
    else state.running--;
  };
}
