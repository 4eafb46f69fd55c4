/** `npm run devnet`: starts the demo chains with live trading and keeps them up until SIGINT/SIGTERM. */
import { parseArgs } from "node:util";
import { NETWORKS, type NetworkName } from "../domain/types.js";
import { DEVNET_PROFILES, type DevnetPools, type DevnetProfile } from "./devnetProfiles.js";
import { startDevnet } from "./startDevnet.js";

const USAGE = `usage: npm run devnet -- [--profile demo|dense] [--networks bsc,eth,polygon] [--seed 1]
                         [--days 7] [--swaps 3000] [--traders 60] [--swaps-per-block 8]
                         [--pools all|main|one] [--interval 3000] [--data-dir .data/devnet]
  --profile dense: one day of 100,000 trades by 250 traders, ~150 a block, on the main pairs
                   (the other options override its defaults)`;

const { values } = parseArgs({
  options: {
    profile: { type: "string" },
    networks: { type: "string" },
    seed: { type: "string" },
    days: { type: "string" },
    swaps: { type: "string" },
    traders: { type: "string" },
    "swaps-per-block": { type: "string" },
    pools: { type: "string" },
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

const profile = values.profile;
if (profile !== undefined && !(DEVNET_PROFILES as readonly string[]).includes(profile)) {
  console.error(`unknown profile ${profile}; expected one of ${DEVNET_PROFILES.join(", ")}\n${USAGE}`);
  process.exit(2);
}

const pools = values.pools;
if (pools !== undefined && !["all", "main", "one"].includes(pools)) {
  console.error(`unknown --pools ${pools}; expected all, main or one\n${USAGE}`);
  process.exit(2);
}

const started = Date.now();
const log = (message: string) =>
  console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s ${message}`);
const liveIntervalMs = number("interval", values.interval) ?? 3000;
const options = {
  ...(profile === undefined ? {} : { profile: profile as DevnetProfile }),
  ...(networks === undefined ? {} : { networks: networks as NetworkName[] }),
  ...(pools === undefined ? {} : { pools: pools as DevnetPools }),
  ...optional("seed", number("seed", values.seed)),
  ...optional("days", number("days", values.days)),
  ...optional("swapsPerNetwork", number("swaps", values.swaps)),
  ...optional("traders", number("traders", values.traders)),
  ...optional("swapsPerBlock", number("swaps-per-block", values["swaps-per-block"])),
  liveIntervalMs,
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
  console.log(`  pools: ${chain.pools.length}, traders: ${chain.traders.length}`);
  const unlisted = Object.entries(chain.unlisted);
  if (unlisted.length > 0) console.log(`  unlisted: ${unlisted.map(([s, a]) => `${s} ${a}`).join(", ")}`);
  if (chain.pools.some((p) => p.thin)) console.log(`  thin pool: ${chain.thinPool}`);
}
console.log(`\nmanifest: ${devnet.manifestPath}`);
console.log(
  `ready in ${devnet.timings.totalMs} ms; ` +
    `${liveIntervalMs > 0 ? `live trading every ~${liveIntervalMs} ms` : "no live trading"}. Ctrl-C stops.`,
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
