import type { MarketReader } from "../../src/views/types.js";

/**
 * The real reader, recording into `log` the name of every method called (or only those in
 * `only`): a spy over the real views, never a fake of them.
 */
export function spyReader(reader: MarketReader, log: string[], only?: ReadonlySet<string>): MarketReader {
  return new Proxy(reader, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (only === undefined || only.has(String(property))) log.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
