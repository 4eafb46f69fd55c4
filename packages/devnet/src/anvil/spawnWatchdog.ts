import { type ChildProcess, spawn } from "node:child_process";

/**
 * Makes a child process die with this one, even when this one is SIGKILLed and no exit handler
 * runs (anvil has no parent-death flag): a tiny shell reads a pipe from us and kills `pid` when
 * the pipe closes. Undefined on Windows.
 */
export function spawnWatchdog(pid: number): ChildProcess | undefined {
  if (process.platform === "win32") return undefined;
  const watchdog = spawn("/bin/sh", ["-c", `while read -r _; do :; done; kill -9 ${pid} 2>/dev/null`], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  watchdog.on("error", () => {});
  // The watchdog must never keep the event loop alive by itself.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}
