/** Native objects kept reachable until the process exits (see openSqliteDatabase for why). */
const kept: object[] = [];

/** Keeps a native better-sqlite3 object alive for the process's life (see openSqliteDatabase). */
export function keepNativeAlive<T extends object>(value: T): T {
  kept.push(value);
  return value;
}
