import type { FastifyInstance } from "fastify";
import { SwapgraphError } from "../../errors.js";
import type { Metrics } from "../../metrics/createMetrics.js";
import type { SettledSwapHours } from "../../views/answers/createSettledSwapHours.js";
import { buildRateLimitNote } from "../../views/buildRateLimitNote.js";
import type { MarketState } from "../../views/types.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { refuseOtherMethods, unlimited } from "../routeConfig.js";

/** Options of probesPlugin. */
export interface ProbesOptions {
  reader: MarketState;
  metrics: Metrics;
  /** Readiness for /ready (default: every configured network served once and is not halted). */
  ready?: () => boolean;
  /** The settled hours of /api/swaps_24h, when kept: /ready also waits until each network's are on disk. */
  swapHours?: Pick<SettledSwapHours, "caughtUp">;
  /** True while the process drains for shutdown: /ready answers 503 so load balancers move on. */
  draining?: () => boolean;
}

// Whether this process can serve, not whether a remote RPC is healthy: a load balancer that
// took every replica out during an RPC outage would turn stale-but-served data into no data.
function everyNetworkReady(reader: MarketState): boolean {
  const networks = reader.networks();
  return (
    networks.length > 0 &&
    networks.every((network) => {
      const status = reader.status(network);
      return status.ready && !status.halted;
    })
  );
}

/**
 * /health (alive), /ready (503 until every configured network finished its backfill and its
 * settled hours of /api/swaps_24h are on disk, while one is halted, and while draining) and
 * /metrics (Prometheus); none counts against the rate limit.
 */
export async function probesPlugin(app: FastifyInstance, options: ProbesOptions): Promise<void> {
  const { reader, metrics } = options;
  const { swapHours } = options;
  // The hours are rendered as the backfill passes them: /ready waits at most for the last ones, so
  // the first whole list after it reads the disk, not the store.
  const hoursKept = () =>
    swapHours === undefined || reader.networks().every((network) => swapHours.caughtUp(network));
  const ready = options.ready ?? (() => everyNetworkReady(reader));
  const alive = Buffer.from('{"status":"ok"}');
  const readyBody = Buffer.from('{"status":"ready"}');
  app.get("/health", { ...unlimited(), compress: false }, async (_request, reply) =>
    reply.headers(JSON_HEADERS).send(alive),
  );
  refuseOtherMethods(app, "/health");
  app.get("/ready", { ...unlimited(), compress: false }, async (_request, reply) => {
    if (options.draining?.() === true)
      throw new SwapgraphError("NOT_READY", "Not ready: this server is shutting down.");
    const indexed = ready();
    if (indexed && !hoursKept())
      throw new SwapgraphError(
        "NOT_READY",
        "Not ready: the settled hours of /api/swaps_24h are still being written to disk.",
      );
    if (!indexed) {
      // A provider's rate limit explains a slow catch-up: said per network, in the status's words.
      const notes = reader
        .networks()
        .flatMap((network) => {
          const note = buildRateLimitNote(reader.status(network));
          return note === undefined ? [] : [`${network}: ${note}`];
        })
        .join("; ");
      throw new SwapgraphError(
        "NOT_READY",
        `Not ready: indexing has not caught up on every network yet${notes === "" ? "" : ` (${notes})`}.`,
      );
    }
    return reply.headers(JSON_HEADERS).send(readyBody);
  });
  refuseOtherMethods(app, "/ready");
  app.get("/metrics", unlimited(), async (_request, reply) =>
    reply.header("Content-Type", metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  refuseOtherMethods(app, "/metrics");
}
