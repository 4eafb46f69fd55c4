import { USD_SCALE } from "../domain/types.js";
import type { ConfigFile } from "./networkConfigSchema.js";
import type { NetworkConfig } from "./types.js";

/** Writes network configs in the configuration-file shape (what loadConfig reads back). */
export function toConfigJson(
  networks: readonly NetworkConfig[],
  http?: { host: string; port: number },
): ConfigFile {
  return {
    ...(http === undefined ? {} : { http }),
    networks: networks.map(({ minLiquidityUsd, startBlock, dexes, ...rest }) => {
      const whole = minLiquidityUsd / USD_SCALE;
      const frac = (minLiquidityUsd % USD_SCALE).toString().padStart(18, "0").replace(/0+$/, "");
      return {
        ...rest,
        // A V3 DEX's 0 stands for "a fee per pool": the file leaves feeBps out.
        dexes: dexes.map(({ feeBps, ...dex }) => (dex.kind === "uniswap-v2" ? { ...dex, feeBps } : dex)),
        minLiquidityUsd: frac === "" ? whole.toString() : `${whole}.${frac}`,
        ...(startBlock === undefined ? {} : { startBlock: startBlock.toString() }),
      };
    }),
  };
}
