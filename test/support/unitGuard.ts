/**
 * Setup file of the unit project: a unit test runs no chain, opens no socket and loads no
 * database driver. Those paths throw here, so a file that needs them fails at once and moves to
 * the integration project (vitest.config.ts) instead of slowing the edit-test loop down.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

function refuse(what: string): never {
  throw new Error(`a unit test may not ${what}: move the file to the integration project (vitest.config.ts)`);
}

net.Socket.prototype.connect = () => refuse("open a network connection");
net.Server.prototype.listen = () => refuse("listen on a port");
for (const name of ["spawn", "spawnSync", "exec", "execFile", "execSync", "execFileSync", "fork"] as const) {
  (childProcess as unknown as Record<string, unknown>)[name] = () => refuse(`start a process (${name})`);
}
// Native addons (better-sqlite3) are loaded through process.dlopen.
process.dlopen = () => refuse("load a native addon (a database driver)");
// `import { spawn } from "node:child_process"` reads the ESM exports: bring them in line.
syncBuiltinESMExports();
