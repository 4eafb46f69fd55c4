/** A sleep that stop() can cut short: the polling loops wait on it between rounds. */
export interface Sleeper {
  sleep(ms: number): Promise<void>;
  /** Ends the current sleep now (no-op when not sleeping). */
  wake(): void;
}

/** Creates a Sleeper. */
export function createSleeper(): Sleeper {
  let wake: (() => void) | undefined;
  return {
    async sleep(ms) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    },
    wake() {
      wake?.();
    },
  };
}
