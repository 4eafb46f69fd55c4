import type { AnswerFreshness } from "../views/answers/answerFreshness.js";

/** X-Indexed-Block and X-Data-Age of an answer (each only when known). */
export function freshnessHeaders(status: AnswerFreshness | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status?.indexedBlock !== null && status?.indexedBlock !== undefined) {
    headers["X-Indexed-Block"] = status.indexedBlock;
  }
  if (status?.dataAgeSeconds !== null && status?.dataAgeSeconds !== undefined) {
    headers["X-Data-Age"] = String(status.dataAgeSeconds);
  }
  return headers;
}
