import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { DevnetNetworkConfig } from "./devnetTypes.js";

const USD_SCALE = 10n ** 18n;

/**
 * Writes the devnet manifest in the configuration-file format: the same shape a real-chain config
 * file has, so `npm start -- --config <manifest>` reads it like any other
 * (test/devnet/productContract.test.ts reads one back through the product's loader).
 */
export async function writeManifest(path: string, networks: readonly DevnetNetworkConfig[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const json = JSON.stringify({ networks: networks.map(toNetworkJson) }, null, 2);
  // Write then rename: a reader never sees half a manifest.
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${json}\n`);
  await rename(partial, path);
}

/**
 * One network as the file holds it: bigints as decimal strings (USD with its fraction), a V3 DEX
 * without feeBps (its pools carry their fees).
 */
function toNetworkJson({ minLiquidityUsd, startBlock, dexes, ...rest }: DevnetNetworkConfig): object {
  const whole = minLiquidityUsd / USD_SCALE;
  const frac = (minLiquidityUsd % USD_SCALE).toString().padStart(18, "0").replace(/0+$/, "");
  return {
    ...rest,
    dexes: dexes.map(({ feeBps, ...dex }) => (dex.kind === "uniswap-v2" ? { ...dex, feeBps } : dex)),
    minLiquidityUsd: frac === "" ? whole.toString() : `${whole}.${frac}`,
    ...(startBlock === undefined ? {} : { startBlock: startBlock.toString() }),
  };
}
