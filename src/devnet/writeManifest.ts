import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { NetworkConfig } from "../config/types.js";

/**
 * Writes the devnet manifest, `{"networks": NetworkConfig[]}` with bigints as decimal strings:
 * the same shape a real-chain config file has, so the indexer reads both the same way.
 */
export async function writeManifest(path: string, networks: readonly NetworkConfig[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const json = JSON.stringify(
    { networks },
    (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value),
    2,
  );
  // Write then rename: a reader never sees half a manifest.
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${json}\n`);
  await rename(partial, path);
}
