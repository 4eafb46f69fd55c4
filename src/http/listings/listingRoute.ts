import type { FastifyReply, FastifyRequest } from "fastify";

/** A GET route of the listings: its path (`:name` parameters), its operation in schema/openapi.yaml, its handler. */
export interface ListingRoute {
  path: string;
  operationId: string;
  /** Kept per indexed block, with its own gzip copy; else a streamed list, charged to the list budget. */
  kept: boolean;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}
