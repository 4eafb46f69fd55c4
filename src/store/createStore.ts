import type { AppConfig } from "../config/types.js";
import { createPostgresStore } from "./postgres/createPostgresStore.js";
import { createSqliteStore } from "./sqlite/createSqliteStore.js";
import type { Store } from "./types.js";

/** Opens the store the configuration names (SQLite file or ":memory:", or PostgreSQL by URL); call migrate() next. */
export function createStore(config: AppConfig["store"]): Store {
  switch (config.kind) {
    case "sqlite":
      return createSqliteStore({ path: config.path });
    case "postgres":
      return createPostgresStore({ url: config.url });
    default: {
      const never: never = config;
      throw new Error(`unknown store kind: ${JSON.stringify(never)}`);
    }
  }
}
