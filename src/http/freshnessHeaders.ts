import type { AnswerFreshness } from "../views/answers/answerFreshness.js";

/**
 * X-Indexed-Block and X-Data-Age of an answer (each only when known), named in lowercase as
 * Fastify stores and sends them (a mixed-case name is lowercased again on every request).
 */
export function freshnessHeaders(status: AnswerFreshness | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status?.indexedBlock !== null && status?.indexedBlock !== undefined) {
    headers["x-indexed-block"] = status.indexedBlock;
  }
  if (status?.dataAgeSeconds !== null && status?.dataAgeSeconds !== undefined) {
    headers["x-data-age"] = String(status.dataAgeSeconds);
  }
  return headers;
}
