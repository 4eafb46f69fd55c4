import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";

/** An hour of a network's /api/swaps_24h list as kept on disk: its elements, joined by commas. */
export interface KeptHour {
  network: string;
  start: number;
  path: string;
  /** Elements in the file. */
  rows: number;
  bytes: number;
  /** The block of its last swap (undefined: none): a list pinned at or above it sees the whole hour. */
  lastBlock: bigint | undefined;
}

/** Writes one hour's elements as they are rendered; nothing is kept unless committed. */
interface HourWriter {
  /** Appends the bytes of `rows` more elements (without a separating comma: the writer adds it). */
  append(elements: Uint8Array, rows: number): void;
  /** Keeps the hour (replacing any copy of it), whose last swap is in `lastBlock`. */
  commit(lastBlock?: bigint): void;
  /** Drops what was written. */
  abort(): void;
}

/** The rendered bytes of settled hours of /api/swaps_24h, on disk (see createSwapHourCache). */
export interface SwapHourCache {
  get(network: string, hourStart: number): KeptHour | undefined;
  /** A writer of an hour, or undefined when the disk refuses (then the hour is not kept). */
  write(network: string, hourStart: number): HourWriter | undefined;
  /** Drops a network's hours that start before `from`, or all of them. */
  prune(network: string, from?: number): void;
  /**
   * Opens a kept hour for reading: its pieces of at most `chunkBytes`, the first after `prefix`
   * bytes left free. Undefined when the file cannot be opened (the hour is then forgotten).
   */
  open(
    hour: KeptHour,
    chunkBytes: number,
    prefix: number,
  ): Promise<AsyncGenerator<{ buffer: Buffer; end: number }> | undefined>;
  /** Removes the directory and everything in it. */
  close(): void;
}

/**
 * Creates the disk copy of settled hours of the swap list, in a directory of its own under
 * `parentDir` (removed by close()). A list repeats the same hours download after download (a
 * 24-hour window is 23 settled hours and two moving ends): each settled hour is rendered once
 * (createSettledSwapHours), then served from the file at the disk's speed. Memory holds the index only (about 25 hours a
 * network); the disk holds at most a window's rendered bytes per network.
 */
export function createSwapHourCache(parentDir: string): SwapHourCache {
  mkdirSync(parentDir, { recursive: true });
  removeOrphans(parentDir);
  const dir = mkdtempSync(join(parentDir, `swaps-${process.pid}-`));
  const hours = new Map<string, KeptHour>();
  let temp = 0;
  const keyOf = (network: string, start: number) => `${network}-${start}`;

  return {
    get: (network, start) => hours.get(keyOf(network, start)),

    write(network, start) {
      const key = keyOf(network, start);
      const path = join(dir, `${key}.json`);
      const partial = join(dir, `${key}.${++temp}.part`);
      let fd: number;
      try {
        fd = openSync(partial, "w");
      } catch {
        return undefined;
      }
      let rows = 0;
      let bytes = 0;
      let failed = false;
      let done = false;
      const comma = Buffer.from(",");
      // Closes the file once: a second close could close another file given the same number.
      const finish = (): boolean => {
        if (done) return false;
        done = true;
        try {
          closeSync(fd);
        } catch {
          failed = true;
        }
        return true;
      };
      return {
        append(elements, count) {
          if (done || failed || count === 0) return;
          try {
            if (rows > 0) bytes += writeSync(fd, comma);
            let at = 0;
            while (at < elements.length) at += writeSync(fd, elements, at, elements.length - at);
            bytes += elements.length;
            rows += count;
          } catch {
            failed = true;
          }
        },
        commit(lastBlock) {
          if (!finish()) return;
          if (failed) return void rmSync(partial, { force: true });
          try {
            renameSync(partial, path);
            hours.set(key, { network, start, path, rows, bytes, lastBlock });
          } catch {
            rmSync(partial, { force: true });
          }
        },
        abort() {
          if (finish()) rmSync(partial, { force: true });
        },
      };
    },

    prune(network, from) {
      for (const [key, hour] of hours) {
        if (hour.network !== network || (from !== undefined && hour.start >= from)) continue;
        hours.delete(key);
        // A download reading it keeps its open file.
        try {
          unlinkSync(hour.path);
        } catch {
          // Already gone.
        }
      }
    },

    async open(hour, chunkBytes, prefix) {
      let file: FileHandle;
      try {
        file = await open(hour.path, "r");
      } catch {
        if (hours.get(keyOf(hour.network, hour.start)) === hour)
          hours.delete(keyOf(hour.network, hour.start));
        return undefined;
      }
      return pieces(file, hour, chunkBytes, prefix);
    },

    close() {
      hours.clear();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function* pieces(
  file: FileHandle,
  hour: KeptHour,
  chunkBytes: number,
  prefix: number,
): AsyncGenerator<{ buffer: Buffer; end: number }> {
  try {
    let position = 0;
    let free = prefix;
    while (position < hour.bytes) {
      const buffer = Buffer.allocUnsafe(free + Math.min(chunkBytes, hour.bytes - position));
      const { bytesRead } = await file.read(buffer, free, buffer.length - free, position);
      if (bytesRead === 0) throw new Error(`kept hour ${hour.path} ended early`);
      position += bytesRead;
      yield { buffer, end: free + bytesRead };
      free = 0;
    }
  } finally {
    await file.close();
  }
}

/** Removes the directories of processes that are gone (a crash leaves its directory behind). */
function removeOrphans(parentDir: string): void {
  for (const name of readdirSync(parentDir)) {
    const pid = /^swaps-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 0);
    } catch (error) {
      // ESRCH: no such process (EPERM: it lives, under another user).
      if ((error as NodeJS.ErrnoException).code === "ESRCH") {
        rmSync(join(parentDir, name), { recursive: true, force: true });
      }
    }
  }
}
