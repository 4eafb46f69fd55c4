/** What a V3 pool keeps for an initialized tick that swaps need. */
export interface TickInfo {
  /** Liquidity added to the active liquidity when the price crosses the tick upwards (int128). */
  readonly liquidityNet: bigint;
  /** Liquidity of every position that has the tick as a bound (uint128); never 0 in a table. */
  readonly liquidityGross: bigint;
}

/** The next tick a swap step goes to, as TickBitmap.nextInitializedTickWithinOneWord answers. */
interface NextTick {
  next: number;
  /** False when `next` is only the end of the bitmap word (no initialized tick before it). */
  initialized: boolean;
}

/** The read side of a tick table: what a swap needs. */
export interface ReadonlyTickTable {
  /** Number of initialized ticks. */
  readonly size: number;
  get(tick: number): TickInfo | undefined;
  /** The initialized ticks in ascending order. */
  entries(): IterableIterator<[number, TickInfo]>;
  /**
   * TickBitmap.nextInitializedTickWithinOneWord: the nearest initialized tick at or below `tick`
   * (lte) or above it, searching only the 256-bit word of compressed ticks (tick / tickSpacing,
   * floored) it starts in; the word's edge when none is there.
   */
  nextInitializedTickWithinOneWord(tick: number, tickSpacing: number, lte: boolean): NextTick;
  /** A copy that later changes of either table do not reach. */
  clone(): TickTable;
}

/** The initialized ticks of a V3 pool (all multiples of its tick spacing), with their liquidity. */
export interface TickTable extends ReadonlyTickTable {
  /** Sets a tick's liquidity; a liquidityGross of 0 uninitializes (removes) it. */
  set(tick: number, liquidityNet: bigint, liquidityGross: bigint): void;
}

/** Index of the first element of the ascending `sorted` that is >= `value` (its length if none). */
function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Creates a tick table: a map from tick to liquidity plus the ticks in a sorted array, so the
 * next initialized tick is a binary search (a quote asks for one per step) and a change is a
 * splice (rarer: Mint and Burn only).
 */
export function createTickTable(initial: Iterable<readonly [number, TickInfo]> = []): TickTable {
  const info = new Map<number, TickInfo>();
  const sorted: number[] = [];

  const set = (tick: number, liquidityNet: bigint, liquidityGross: bigint): void => {
    if (!Number.isInteger(tick)) throw new Error(`tick table: tick ${tick} is not an integer`);
    if (liquidityGross < 0n) throw new Error(`tick table: negative liquidityGross at tick ${tick}`);
    const present = info.has(tick);
    if (liquidityGross === 0n) {
      if (!present) return;
      info.delete(tick);
      sorted.splice(lowerBound(sorted, tick), 1);
      return;
    }
    info.set(tick, { liquidityNet, liquidityGross });
    if (!present) sorted.splice(lowerBound(sorted, tick), 0, tick);
  };

  for (const [tick, { liquidityNet, liquidityGross }] of initial) set(tick, liquidityNet, liquidityGross);

  const table: TickTable = {
    get size() {
      return sorted.length;
    },
    get: (tick) => info.get(tick),
    set,
    *entries() {
      // A snapshot of the order, so a change while iterating does not skip a tick.
      for (const tick of [...sorted]) yield [tick, info.get(tick) as TickInfo];
    },
    nextInitializedTickWithinOneWord(tick, tickSpacing, lte) {
      const compressed = Math.floor(tick / tickSpacing);
      if (lte) {
        const wordStart = compressed - (compressed & 255);
        const index = lowerBound(sorted, compressed * tickSpacing + 1) - 1;
        const found = index >= 0 ? (sorted[index] as number) : undefined;
        return found !== undefined && found >= wordStart * tickSpacing
          ? { next: found, initialized: true }
          : { next: wordStart * tickSpacing, initialized: false };
      }
      const from = compressed + 1;
      const wordEnd = from - (from & 255) + 255;
      const found = sorted[lowerBound(sorted, from * tickSpacing)];
      return found !== undefined && found <= wordEnd * tickSpacing
        ? { next: found, initialized: true }
        : { next: wordEnd * tickSpacing, initialized: false };
    },
    clone: () => createTickTable(table.entries()),
  };
  return table;
}
