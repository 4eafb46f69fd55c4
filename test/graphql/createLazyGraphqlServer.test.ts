import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLazyGraphqlServer } from "../../src/graphql/createLazyGraphqlServer.js";
import { createHttpServer } from "../../src/http/createHttpServer.js";
import { createTestServer } from "../http/support.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";

// The composition root builds the GraphQL server on its first request (or just after the
// banner): the first requests, concurrent ones included, answer as an eagerly built server does.

let fixture: Fixture;

beforeAll(async () => {
  fixture = await createFixtureReader();
});

afterAll(async () => {
  await fixture?.close();
});

const QUERY = JSON.stringify({ query: "{ status { network indexedBlock } networks { name } }" });

describe("createLazyGraphqlServer", () => {
  test("behavior: concurrent loads share one build", async () => {
    const lazy = createLazyGraphqlServer({ reader: fixture.reader, logger: pino({ level: "silent" }) });
    const [first, second, third] = await Promise.all([lazy.load(), lazy.load(), lazy.load()]);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(await lazy.load()).toBe(first);
  });

  test("behavior: the first /graphql requests, concurrent, build it once and answer as an eager server", async () => {
    const logger = pino({ level: "silent" });
    const eager = await createTestServer(fixture.reader, { logger });
    const lazy = createLazyGraphqlServer({ reader: fixture.reader, logger });
    // The build is held until all three requests wait for it.
    const built: unknown[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let waiting = 0;
    let allWaiting!: () => void;
    const asked = new Promise<void>((resolve) => {
      allWaiting = resolve;
    });
    const app = await createHttpServer({
      reader: fixture.reader,
      logger,
      graphql: {
        marketState: lazy.marketState,
        load: async () => {
          const building = lazy.load();
          if (++waiting === 3) allWaiting();
          await held;
          const server = await building;
          built.push(server);
          return server;
        },
      },
    });
    try {
      const ask = (server: typeof app) =>
        server.inject({
          method: "POST",
          url: "/graphql",
          headers: { "content-type": "application/json" },
          payload: QUERY,
        });
      const expected = await ask(eager);
      expect(expected.statusCode).toBe(200);
      const answering = Promise.all([ask(app), ask(app), ask(app)]);
      await asked;
      release();
      const answers = await answering;
      for (const answer of answers) {
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual(expected.json());
      }
      expect(built).toHaveLength(3);
      expect(new Set(built).size).toBe(1);
    } finally {
      await app.close();
      await eager.close();
    }
  });
});
