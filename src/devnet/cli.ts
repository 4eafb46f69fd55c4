/** `npm run devnet`: starts the demo chains with live trading and keeps them up until SIGINT/SIGTERM. */
import { parseArgs } from "node:util";
import { NETWORKS, type NetworkName } from "../domain/types.js";
import { startDevnet } from "./startDevnet.js";

const USAGE = `usage: npm run devnet -- [--networks bsc,eth,polygon] [--seed 1] [--days 7] [--swaps 3000]
                         [--traders 60] [--interval 3000] [--data-dir .data/devnet]`;

const { values } = parseArgs({
  options: {
    networks: { type: "string" },
    seed: { type: "string" },
    days: { type: "string" },
    swaps: { type: "string" },
    traders: { type: "string" },
    interval: { type: "string" },
    "data-dir": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help === true) {
  console.log(USAGE);
  process.exit(0);
}

const number = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`--${name} must be a non-negative number, got "${raw}"\n${USAGE}`);
    process.exit(2);
  }
  return value;
};
const networks = values.networks?.split(",").map((n) => n.trim());
const unknown = networks?.filter((n) => !(NETWORKS as readonly string[]).includes(n)) ?? [];
if (unknown.length > 0) {
  console.error(
    `unknown network(s) ${unknown.join(", ")}; expected some of ${NETWORKS.join(", ")}\n${USAGE}`,
  );
  process.exit(2);
}

const started = Date.now();
const log = (message: string) =>
  console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s ${message}`);
const options = {
  ...(networks === undefined ? {} : { networks: networks as NetworkName[] }),
  ...optional("seed", number("seed", values.seed)),
  ...optional("days", number("days", values.days)),
  ...optional("swapsPerNetwork", number("swaps", values.swaps)),
  ...optional("traders", number("traders", values.traders)),
  ...optional("liveIntervalMs", number("interval", values.interval) ?? 3000),
  ...(values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] }),
  log,
};

let stopping = false;
const devnet = await startDevnet(options).catch((error: unknown) => {
  console.error(`devnet failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

console.log("");
for (const chain of devnet.chains) {
  const h = chain.history;
  console.log(`${chain.network} (chain id ${chain.chainId})  ${chain.rpcUrl}  anvil pid ${chain.pid}`);
  for (const dex of chain.dexes)
    console.log(`  ${dex.name.padEnd(15)} factory ${dex.factory}  router ${dex.router}`);
  console.log(
    `  history: ${h.trades} trades, ${h.swapLogs} swaps, ${h.blocks} blocks (#${h.fromBlock}-#${h.toBlock}), ` +
      `${new Date(h.fromTimestamp * 1000).toISOString()} .. ${new Date(h.toTimestamp * 1000).toISOString()}, ${h.ms} ms`,
  );
  console.log(
    `  unlisted: ${Object.entries(chain.unlisted)
      .map(([s, a]) => `${s} ${a}`)
      .join(", ")}`,
  );
  console.log(`  thin pool: ${chain.thinPool}`);
}
console.log(`\nmanifest: ${devnet.manifestPath}`);
console.log(
  `compile ${devnet.timings.compileMs} ms (${devnet.timings.compileSource}), ready in ${devnet.timings.totalMs} ms; ` +
    `live trading every ~${options.liveIntervalMs} ms. Ctrl-C stops.`,
);

const shutdown = async (signal: string) => {
  if (stopping) {
    // A second signal means: do not wait any longer (anvils are killed by the exit hook).
    process.exit(1);
  }
  stopping = true;
  log(`${signal}: stopping`);
  await devnet.stop();
  log("stopped");
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

function optional<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
