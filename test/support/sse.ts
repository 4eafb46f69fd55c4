/** One result of a GraphQL subscription as an SSE `next` event carries it. */
export interface SseResult {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** A GraphQL subscription read over real HTTP as a browser's EventSource would. */
export interface SseSubscription {
  /** Every `next` result so far, in order. */
  results: SseResult[];
  /** Resolves when the server completes the stream (`event: complete` or the body ends). */
  ended: Promise<void>;
  /** The response headers. */
  headers: Headers;
  status: number;
  /** Aborts the request (the client goes away). */
  close(): void;
}

/**
 * Subscribes with GET /graphql?query=...&variables=... and `Accept: text/event-stream` (the
 * graphql-sse distinct connections mode), collecting the results as they arrive.
 */
export async function subscribeSse(
  base: string,
  query: string | { extensions: Record<string, unknown> },
  variables: Record<string, unknown> = {},
): Promise<SseSubscription> {
  const controller = new AbortController();
  // A document, or (a published operation) only its id in `extensions`.
  const operation =
    typeof query === "string"
      ? `query=${encodeURIComponent(query)}`
      : `extensions=${encodeURIComponent(JSON.stringify(query.extensions))}`;
  const url = `${base}/graphql?${operation}&variables=${encodeURIComponent(JSON.stringify(variables))}`;
  const response = await fetch(url, { headers: { accept: "text/event-stream" }, signal: controller.signal });
  const results: SseResult[] = [];
  const ended = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          const lines = block.split("\n");
          const event = lines
            .find((line) => line.startsWith("event:"))
            ?.slice(6)
            .trim();
          const data = lines
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trimStart())
            .join("\n");
          if (event === "complete") return;
          if (data !== "") results.push(JSON.parse(data) as SseResult);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  ended.catch(() => undefined);
  return {
    results,
    ended,
    headers: response.headers,
    status: response.status,
    close: () => controller.abort(),
  };
}
