import Database from "better-sqlite3";
import { keepNativeAlive } from "./keepNativeAlive.js";

/**
 * Opens a better-sqlite3 connection whose native objects (the connection, its statements) stay
 * reachable until the process exits (keepNativeAlive).
 *
 * Why: from Node 24.19 (nodejs/node#65446) the header-only `node::ObjectWrap`, which
 * better-sqlite3 12 compiles in, registers an environment cleanup hook per object and removes it
 * in its destructor. When the garbage collector frees such an object from a GC run that has no
 * entered context, the removal finds no Environment and Node aborts (`Assertion failed: (env) !=
 * nullptr` in `RemoveEnvironmentCleanupHook`, from `Statement::~Statement`); the abort can also
 * hang the process instead of ending it. Any build compiled against Node 24.19+ or 26 headers has
 * it (every from-source build there). A wrapper that is never collected never runs that path: at
 * exit Node's own cleanup hooks free them, with the Environment still there. Measured on Node
 * 24.21.0 with 12.11.1 from source: a loop preparing and dropping statements aborted within 15 s;
 * the same loop keeping them ran to the end (docs/operations.md).
 *
 * The cost is bounded because the store prepares a fixed set of statement texts per connection
 * (createStatementCache, prepared once each) and a handful of connections per process; nothing on
 * a request path may call `iterate()` (an iterator per call would be kept forever): pages of
 * `all()` instead (createSqliteCandles).
 */
export function openSqliteDatabase(path: string): Database.Database {
  const db = keepNativeAlive(new Database(path));
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => keepNativeAlive(prepare(source))) as typeof db.prepare;
  // The driver's pragma() prepares a statement of its own and drops it: route it through the kept
  // prepare. (transaction() keeps its statements as long as the connection, which is kept.)
  db.pragma = ((source: string, options?: Database.PragmaOptions) => {
    const statement = db.prepare(`PRAGMA ${source}`);
    if (!statement.reader) {
      statement.run();
      return options?.simple ? undefined : [];
    }
    return options?.simple ? statement.pluck().get() : statement.all();
  }) as typeof db.pragma;
  return db;
}
