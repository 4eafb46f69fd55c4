/** `npm run devnet`: starts the demo chains with live trading and keeps them up until SIGINT/SIGTERM. */
import { parseArgs } from "node:util";
import { DEVNET_NETWORKS, type DevnetNetworkName } from "./devnetTypes.js";
import { createProviderEmulator, type ProviderEmulator } from "./emulator/createProviderEmulator.js";
import type { ProviderFaults } from "./emulator/providerFaults.js";
import {
  BLOCK_MIXES,
  type BlockMixName,
  DEVNET_PROFILES,
  type DevnetPools,
  type DevnetProfile,
} from "./presets/devnetProfiles.js";
import { startDevnet } from "./startDevnet.js";
import { writeManifest } from "./writeManifest.js";

const USAGE = `usage: npm run devnet -- [--profile demo|dense|bsc-shaped] [--networks bsc,eth,polygon] [--seed 1]
                         [--days 7] [--swaps 3000] [--traders 60] [--swaps-per-block 8]
                         [--pools all|main|one] [--interval 3000] [--data-dir .data/devnet]
                         [--mix bsc|issue17] [--blocks 500]
                         [--emulate] [--log-range N] [--log-count N] [--batch-cap N] [--rate N] [--lag N]
  --profile dense: one day of 100,000 trades by 250 traders, ~150 a block, on the main pairs
                   (the other options override its defaults)
  --profile bsc-shaped: full blocks 3 s apart (--blocks, default 500): --mix bsc (default) ~165
                   transactions a block, 20 of them trades on the configured DEXes, 20 swaps on a
                   foreign V2 fork with 40 pools, the rest transfers, approvals, wraps, a farm's
                   logs; --mix issue17: exactly 20 trades + 20 foreign swaps + 100 native
                   transfers a block (100 blocks)
  --emulate        a hosted-provider emulator in front of each chain (the manifest points at it);
                   counts calls, bytes and compute units by method, printed at Ctrl-C; faults:
                   --log-range N (eth_getLogs over N blocks refused), --log-count N (answers over
                   N logs refused), --batch-cap N, --rate N (429 above N calls/s), --lag N (data
                   calls answered by a node N blocks behind)`;

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
    mix: { type: "string" },
    blocks: { type: "string" },
    emulate: { type: "boolean" },
    "log-range": { type: "string" },
    "log-count": { type: "string" },
    "batch-cap": { type: "string" },
    rate: { type: "string" },
    lag: { type: "string" },
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
const unknown = networks?.filter((n) => !(DEVNET_NETWORKS as readonly string[]).includes(n)) ?? [];
if (unknown.length > 0) {
  console.error(
    `unknown network(s) ${unknown.join(", ")}; expected some of ${DEVNET_NETWORKS.join(", ")}\n${USAGE}`,
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

const mix = values.mix;
if (mix !== undefined && !Object.keys(BLOCK_MIXES).includes(mix)) {
  console.error(`unknown --mix ${mix}; expected one of ${Object.keys(BLOCK_MIXES).join(", ")}\n${USAGE}`);
  process.exit(2);
}

const faults: ProviderFaults = {};
const logRange = number("log-range", values["log-range"]);
if (logRange !== undefined) faults.logRange = { blocks: logRange };
const logCount = number("log-count", values["log-count"]);
if (logCount !== undefined) faults.logCount = { logs: logCount };
const batchCap = number("batch-cap", values["batch-cap"]);
if (batchCap !== undefined) faults.batchSize = { calls: batchCap };
const rate = number("rate", values.rate);
if (rate !== undefined) faults.rateLimit = { callsPerSecond: rate };
const lag = number("lag", values.lag);
if (lag !== undefined) faults.lag = { blocks: lag };
const emulate = values.emulate === true || Object.keys(faults).length > 0;

const started = Date.now();
const log = (message: string) =>
  console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s ${message}`);
const liveIntervalMs = number("interval", values.interval) ?? 3000;
const options = {
  ...(profile === undefined ? {} : { profile: profile as DevnetProfile }),
  ...(networks === undefined ? {} : { networks: networks as DevnetNetworkName[] }),
  ...(pools === undefined ? {} : { pools: pools as DevnetPools }),
  ...optional("seed", number("seed", values.seed)),
  ...optional("days", number("days", values.days)),
  ...optional("swapsPerNetwork", number("swaps", values.swaps)),
  ...optional("traders", number("traders", values.traders)),
  ...optional("swapsPerBlock", number("swaps-per-block", values["swaps-per-block"])),
  ...optional("blocks", number("blocks", values.blocks)),
  ...(mix === undefined ? {} : { blockMix: mix as BlockMixName }),
  liveIntervalMs,
  ...(values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] }),
  log,
};

let stopping = false;
const devnet = await startDevnet(options).catch((error: unknown) => {
  console.error(`devnet failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

// The emulators sit between the indexer and the chains: the manifest names them instead.
const emulators: ProviderEmulator[] = [];
if (emulate) {
  for (const chain of devnet.chains)
    emulators.push(await createProviderEmulator({ upstream: chain.rpcUrl, faults }));
  await writeManifest(
    devnet.manifestPath,
    devnet.networks.map((network, i) => ({ ...network, rpcUrls: [emulators[i]!.url] })),
  );
}

console.log("");
for (const [i, chain] of devnet.chains.entries()) {
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
  const busy = chain.busy;
  if (busy !== undefined) {
    const s = busy.summary;
    console.log(
      `  busy blocks: ${s.txsPerBlock.mean} transactions a block (${s.txsPerBlock.min}-${s.txsPerBlock.max}); ` +
        `${s.foreignSwaps} foreign-fork swaps on ${busy.foreign.pools.length} pools (factory ${busy.foreign.factory}), ` +
        `${s.aggregatorTxs} aggregator transactions, ${s.nativeTransfers} native and ${s.tokenTransfers} token transfers, ` +
        `${s.approvals} approvals, ${s.wraps} wraps, ${s.protocolCalls} farm harvests`,
    );
  }
  const emulator = emulators[i];
  if (emulator !== undefined)
    console.log(
      `  provider emulator: ${emulator.url}${Object.keys(faults).length > 0 ? ` faults ${JSON.stringify(faults)}` : ""}`,
    );
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
  for (const [i, emulator] of emulators.entries()) {
    const usage = emulator.usage();
    console.log(
      `${devnet.chains[i]?.network} provider usage: ${usage.total.calls} calls, ${usage.total.computeUnits} compute units, ` +
        `${(usage.total.bytes / 1024 / 1024).toFixed(1)} MB in ${usage.httpRequests} HTTP requests; refused ${usage.refused}`,
    );
    for (const [method, u] of [...usage.byMethod].sort((a, b) => b[1].computeUnits - a[1].computeUnits))
      console.log(
        `  ${method.padEnd(28)} ${String(u.calls).padStart(8)} calls ${String(u.computeUnits).padStart(10)} CU ${String(u.bytes).padStart(12)} B`,
      );
    await emulator.close();
  }
  await devnet.stop();
  log("stopped");
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

function optional<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
