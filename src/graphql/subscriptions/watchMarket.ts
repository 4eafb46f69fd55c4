import { Repeater } from "@repeaterjs/repeater";
import type { MarketEvent } from "../../domain/market.js";
import type { NetworkName } from "../../domain/types.js";
import { SlowSubscriberError } from "../../errors.js";
import type { MarketFeed } from "../../views/types.js";

/**
 * Events a subscriber may fall behind by before it is ended: a stalled client never grows the server.
 * @internal exported for tests, which pin this limit.
 */
export const MAX_PENDING_EVENTS = 256;
/** Subscription.networkStatus is re-sent at least this often, new blocks or not. */
export const STATUS_HEARTBEAT_MS = 5_000;

/**
 * Turns a network's market events into a subscription's values: `map` (run one event at a time,
 * in order) returns the value to send or undefined; `subscribed` runs in the same synchronous
 * step as the subscription to the events (to note where they start), `initial` runs first and
 * may send several values (events that come meanwhile wait for it), `tick` every `tickMs`. The stream ends when the server stops publishing, when `map` throws (with that
 * error) or when the subscriber falls MAX_PENDING_EVENTS behind; the client going away
 * unsubscribes.
 */
export function watchMarket<T>(
  reader: MarketFeed,
  network: NetworkName,
  handlers: {
    map: (event: MarketEvent) => T | undefined | Promise<T | undefined>;
    subscribed?: () => void;
    initial?: () => T | readonly T[] | undefined | Promise<T | readonly T[] | undefined>;
    tick?: { ms: number; value: () => T | undefined | Promise<T | undefined> };
  },
): AsyncIterableIterator<T> {
  return new Repeater<T>(async (push, stop) => {
    let pending = 0;
    let order: Promise<void> = Promise.resolve();
    const deliver = (value: T | readonly T[] | undefined): void => {
      if (value === undefined) return;
      if (Array.isArray(value)) {
        for (const item of value as readonly T[]) deliver(item);
        return;
      }
      pending++;
      if (pending > MAX_PENDING_EVENTS) {
        stop(new SlowSubscriberError(MAX_PENDING_EVENTS));
        return;
      }
      push(value as T).then(
        () => pending--,
        () => undefined,
      );
    };
    const run = (step: () => T | readonly T[] | undefined | Promise<T | readonly T[] | undefined>): void => {
      order = order.then(async () => deliver(await step())).catch((error: unknown) => stop(error));
    };
    const unsubscribe = reader.subscribe(network, (event) => {
      if (event.type === "closed") {
        // What was already mapped is still sent; then the stream completes.
        order = order.then(() => stop());
        return;
      }
      run(() => handlers.map(event));
    });
    handlers.subscribed?.();
    if (handlers.initial !== undefined) run(handlers.initial);
    const tick = handlers.tick;
    const timer = tick === undefined ? undefined : setInterval(() => run(tick.value), tick.ms);
    timer?.unref();
    await stop;
    unsubscribe();
    if (timer !== undefined) clearInterval(timer);
  });
}
