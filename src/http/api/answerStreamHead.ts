import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { acceptsGzip } from "../jsonHeaders.js";

/**
 * Answers HEAD of a streamed list with the GET's headers as they are. The body size is unknown
 * when the headers go out: gzip whenever the client takes it; chunked, no Content-Length (the
 * framework would say 0).
 */
export function answerStreamHead(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (acceptsGzip(request.headers["accept-encoding"])) reply.header("Content-Encoding", "gzip");
  reply.hijack();
  reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
  reply.raw.end();
  return reply;
}
