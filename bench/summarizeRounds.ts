/** The median and spread of one metric over a bench's rounds. */
export interface RoundSummary {
  /** Median of the finite values (mean of the middle two for an even count); NaN when none is. */
  median: number;
  min: number;
  max: number;
  /** Rounds whose value was not finite (NaN: the run never got there). */
  missing: number;
}

/** Median, min and max of the finite values among `values`, and how many were not finite. */
export function summarizeRounds(values: readonly number[]): RoundSummary {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  const missing = values.length - finite.length;
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, missing };
  const middle = Math.floor(finite.length / 2);
  const median = finite.length % 2 === 1 ? finite[middle]! : (finite[middle - 1]! + finite[middle]!) / 2;
  return { median, min: finite[0]!, max: finite[finite.length - 1]!, missing };
}
