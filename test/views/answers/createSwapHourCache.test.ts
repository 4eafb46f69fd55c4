import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createSwapHourCache,
  type KeptHour,
  type SwapHourCache,
} from "../../../src/views/answers/createSwapHourCache.js";

const dirs: string[] = [];
const caches: SwapHourCache[] = [];
function cacheIn(parent = mkdtempSync(join(tmpdir(), "swapgraph-hours-"))): {
  cache: SwapHourCache;
  parent: string;
} {
  dirs.push(parent);
  const cache = createSwapHourCache(parent);
  caches.push(cache);
  return { cache, parent };
}

afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Reads a kept hour whole, with `prefix` free bytes filled with "#". */
async function readAll(
  cache: SwapHourCache,
  hour: KeptHour,
  chunk: number,
  prefix: number,
): Promise<string[]> {
  const file = await cache.open(hour, chunk, prefix);
  if (file === undefined) throw new Error("not opened");
  const pieces: string[] = [];
  for await (const { buffer, end } of file) {
    if (pieces.length === 0) buffer.fill("#", 0, prefix);
    pieces.push(buffer.subarray(0, end).toString("utf8"));
  }
  return pieces;
}

describe("createSwapHourCache", () => {
  test("args: appended elements are joined by commas, read back in chunks after the free prefix", async () => {
    const { cache } = cacheIn();
    const writer = cache.write("bsc", 7_200)!;
    writer.append(Buffer.from('{"a":1},{"a":2}'), 2);
    writer.append(Buffer.alloc(0), 0);
    writer.append(Buffer.from('{"a":3}'), 1);
    expect(cache.get("bsc", 7_200)).toBeUndefined();
    writer.commit();
    const hour = cache.get("bsc", 7_200)!;
    expect(hour).toMatchObject({ network: "bsc", start: 7_200, rows: 3, bytes: 23 });
    expect(await readAll(cache, hour, 10, 1)).toEqual(['#{"a":1},{"', 'a":2},{"a"', ":3}"]);
    expect((await readAll(cache, hour, 1_000, 0)).join("")).toBe('{"a":1},{"a":2},{"a":3}');
    expect(cache.get("eth", 7_200)).toBeUndefined();
  });

  test("behavior: an aborted hour keeps nothing, a later commit replaces, and a commit after abort is ignored", async () => {
    const { cache } = cacheIn();
    const aborted = cache.write("bsc", 0)!;
    aborted.append(Buffer.from("{}"), 1);
    aborted.abort();
    aborted.commit();
    expect(cache.get("bsc", 0)).toBeUndefined();
    for (const text of ['{"v":1}', '{"v":2}']) {
      const writer = cache.write("bsc", 0)!;
      writer.append(Buffer.from(text), 1);
      writer.commit();
      writer.abort();
    }
    expect((await readAll(cache, cache.get("bsc", 0)!, 100, 0)).join("")).toBe('{"v":2}');
  });

  test("behavior: prune drops a network's hours before a start, or all of them; a missing file is forgotten", async () => {
    const { cache } = cacheIn();
    for (const [network, start] of [
      ["bsc", 0],
      ["bsc", 3_600],
      ["bsc", 7_200],
      ["eth", 0],
    ] as const) {
      const writer = cache.write(network, start)!;
      writer.append(Buffer.from("{}"), 1);
      writer.commit();
    }
    const old = cache.get("bsc", 0)!;
    cache.prune("bsc", 3_600);
    expect([
      cache.get("bsc", 0),
      cache.get("bsc", 3_600) !== undefined,
      cache.get("eth", 0) !== undefined,
    ]).toEqual([undefined, true, true]);
    expect(existsSync(old.path)).toBe(false);
    cache.prune("eth");
    expect(cache.get("eth", 0)).toBeUndefined();
    const gone = cache.get("bsc", 7_200)!;
    unlinkSync(gone.path);
    expect(await cache.open(gone, 100, 0)).toBeUndefined();
    expect(cache.get("bsc", 7_200)).toBeUndefined();
  });

  test("behavior: close removes its directory; a new cache removes those of processes that are gone, not live ones", () => {
    const { cache, parent } = cacheIn();
    const writer = cache.write("bsc", 0)!;
    writer.append(Buffer.from("{}"), 1);
    writer.commit();
    // A process that has exited, and this one (alive).
    const dead = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    mkdirSync(join(parent, `swaps-${dead}-abc`));
    mkdirSync(join(parent, `swaps-${process.ppid}-def`));
    const mine = readdirSync(parent).find((name) => name.startsWith(`swaps-${process.pid}-`))!;
    cacheIn(parent);
    expect(readdirSync(parent)).toContain(mine);
    expect(readdirSync(parent)).toContain(`swaps-${process.ppid}-def`);
    expect(readdirSync(parent)).not.toContain(`swaps-${dead}-abc`);
    cache.close();
    expect(readdirSync(parent)).not.toContain(mine);
  });
});
