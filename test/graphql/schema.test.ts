import { printSchema } from "graphql";
import { describe, expect, test } from "vitest";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";

describe("schema", () => {
  test("behavior: the public schema is pinned (a change here is an API change)", () => {
    expect(printSchema(buildSchema())).toMatchSnapshot();
  });
});
