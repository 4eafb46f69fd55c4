import type { UrlHealth } from "./rpcTypes.js";

const BATCH_SIZE = 100;

// Only the host: URLs of hosted providers carry API keys in their paths.
function labelOf(url: string, index: number): string {
  try {
    return `#${index} ${new URL(url).host}`;
  } catch {
    return `#${index}`;
  }
}

/** Creates the health record of the `index`th URL: healthy, at full batch size when batching. */
export function createUrlHealth(url: string, index: number, batch: boolean): UrlHealth {
  return {
    label: labelOf(url, index),
    batchSize: batch ? BATCH_SIZE : 1,
    failures: 0,
    downUntil: 0,
    retryAfterUntil: 0,
  };
}
