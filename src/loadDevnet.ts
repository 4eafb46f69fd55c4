import { ConfigError } from "./errors.js";

/** The devnet's entry the embedded demo starts (packages/devnet/src/startDevnet.ts). */
type DevnetEntry = typeof import("@swapgraph/devnet/startDevnet.js");

const DEVNET = "@swapgraph/devnet";

/**
 * Loads the devnet for the embedded demo. The devnet is a workspace package of TypeScript
 * (packages/devnet) that the production build leaves out, so tsx compiles it here, whether
 * swapgraph itself runs from dist/ or from src/. An install without it (the production image)
 * gets a ConfigError that says to give a configuration file.
 */
export async function loadDevnet(): Promise<DevnetEntry> {
  const { tsImport } = await import("tsx/esm/api");
  try {
    return (await tsImport(`${DEVNET}/startDevnet.js`, import.meta.url)) as DevnetEntry;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code !== "ERR_MODULE_NOT_FOUND" || !message.includes(DEVNET)) throw error;
    throw new ConfigError(
      `No configuration file, and the embedded demo's devnet (${DEVNET}, packages/devnet) is not installed here (the production image leaves it out): give a configuration file with --config <file> or SWAPGRAPH_CONFIG.`,
    );
  }
}
