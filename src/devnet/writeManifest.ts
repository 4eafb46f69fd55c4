import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { toConfigJson } from "../config/toConfigJson.js";
import type { NetworkConfig } from "../config/types.js";

/**
 * Writes the devnet manifest in the configuration-file format (toConfigJson): the same shape a
 * real-chain config file has, so `npm start -- --config <manifest>` reads it like any other.
 */
export async function writeManifest(path: string, networks: readonly NetworkConfig[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const json = JSON.stringify(toConfigJson(networks), null, 2);
  // Write then rename: a reader never sees half a manifest.
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${json}\n`);
  await rename(partial, path);
}
