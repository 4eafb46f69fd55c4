import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import {
  loadPersistedOperations,
  OPERATIONS_DIR,
} from "../../src/graphql/plugins/loadPersistedOperations.js";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";
import { startServer, type TestServer } from "../http/support.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { subscribeSse } from "../support/sse.js";
import { waitFor } from "../support/waitFor.js";

let fixture: Fixture;
let open: TestServer;
let locked: TestServer;
const schema = buildSchema();
const operations = [...loadPersistedOperations(schema).values()];
const byName = (name: string) => operations.find((operation) => operation.name === name)!;

beforeAll(async () => {
  fixture = await createFixtureReader();
  open = await startServer(fixture.reader);
  // Its subscription test streams over SSE: a real socket.
  locked = await startServer(fixture.reader, { persistedOperationsOnly: true, listen: true });
});

afterAll(async () => {
  await open?.close();
  await locked?.close();
  await fixture?.close();
});

function post(server: TestServer, body: unknown) {
  return server.call("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const byId = (id: string) => ({ persistedQuery: { version: 1, sha256Hash: id } });

describe("persisted operations", () => {
  test("args: each published operation is named by the sha256 of its file", () => {
    expect(operations.map((operation) => operation.name)).toEqual(
      expect.arrayContaining(["DailyVolumes", "NetworkStatus", "Pools", "Quote", "RecentSwaps", "SwapFeed"]),
    );
    for (const operation of operations) {
      expect(operation.id).toBe(createHash("sha256").update(operation.document).digest("hex"));
    }
    expect(OPERATIONS_DIR).toMatch(/schema[\\/]operations[\\/]?$/);
  });

  test("behavior: an id answers exactly what its document answers", async () => {
    const quote = byName("Quote");
    const variables = { network: "bsc", sellToken: "WBNB", buyToken: "USDT" };
    const viaId = await post(open, { variables, extensions: byId(quote.id) });
    const viaText = await post(open, { query: quote.document, variables });
    expect(viaId.status).toBe(200);
    // (Its networkStatus carries the data age, which may tick between the two requests.)
    const quoteOf = (answer: { body: unknown }) =>
      (answer.body as { data: { quote: { price: string } } }).data.quote;
    expect(quoteOf(viaId)).toEqual(quoteOf(viaText));
    expect(quoteOf(viaId).price).toMatch(/^\d/);
  });

  test("error: an unknown id is refused and names the protocol's error", async () => {
    const answer = await post(open, { extensions: byId("0".repeat(64)) });
    expect(answer.body).toMatchObject({ errors: [{ message: "PersistedQueryNotFound" }] });
  });

  test("behavior: persistedOperationsOnly runs ids and refuses documents", async () => {
    const volumes = byName("DailyVolumes");
    const viaId = await post(locked, { variables: { network: "bsc" }, extensions: byId(volumes.id) });
    expect(viaId.status).toBe(200);
    expect((viaId.body as { data: { dailyVolumes: unknown[] } }).data.dailyVolumes).toHaveLength(7);
    const viaText = await post(locked, { query: volumes.document, variables: { network: "bsc" } });
    expect(viaText.body).toMatchObject({ errors: [{ message: "PersistedQueryOnly" }] });
  });

  test("behavior: a published subscription runs by id over SSE where only published operations run", async () => {
    const feed = byName("SwapFeed");
    const subscription = await subscribeSse(
      locked.baseUrl,
      { extensions: byId(feed.id) },
      { network: "bsc" },
    );
    expect(subscription.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await waitFor(() => fixture.reader.subscriberCount("bsc") > 0, 10_000, "the subscriber");
    const last = fixture.trades.bsc.at(-1)!;
    const trade = {
      ...last,
      txHash: `0x${"5".repeat(64)}` as const,
      blockNumber: fixture.head.bsc + 1n,
      txIndex: 0,
      logIndex: 0,
    };
    await fixture.commit("bsc", [trade]);
    await waitFor(() => subscription.results.length > 0, 10_000, "the feed event");
    subscription.close();
    expect(subscription.results[0]).toMatchObject({
      data: {
        swaps: {
          type: "ADDED",
          network: "bsc",
          blockNumber: trade.blockNumber.toString(),
          swaps: [
            { txHash: trade.txHash, sender: trade.sender, volumeUSD: formatDecimal(trade.volumeUsd, 18) },
          ],
        },
      },
    });
    // Resumed by id after the block before it: the same swap, from the store.
    const resumed = await subscribeSse(
      locked.baseUrl,
      { extensions: byId(feed.id) },
      { network: "bsc", afterBlock: (trade.blockNumber - 1n).toString() },
    );
    await waitFor(() => resumed.results.length > 0, 10_000, "the replayed swap");
    resumed.close();
    expect(resumed.results[0]).toMatchObject({
      data: { swaps: { type: "ADDED", swaps: [{ txHash: trade.txHash }] } },
    });
  });

  test("error: an operation that does not fit the schema stops the server at start, naming its file", () => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-operations-"));
    writeFileSync(join(dir, "Broken.graphql"), "query Broken { noSuchField }");
    expect(() => loadPersistedOperations(schema, dir)).toThrow(
      /Persisted operation Broken\.graphql is not valid/,
    );
  });
});
