// `npm run test:stress [-- vitest args]`: the suite (or the files named) with a CPU hog on every
// core, as on a shared CI machine at load average 8+. It must pass: tests wait on conditions with
// generous bounds and assert no timing (speed belongs in `npm run bench`).
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const hogs = Array.from({ length: availableParallelism() }, () =>
  spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }),
);
const stopHogs = () => {
  for (const hog of hogs) hog.kill("SIGKILL");
};
process.on("exit", stopHogs);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopHogs();
    process.exit(130);
  });
}

const started = Date.now();
const vitest = spawn(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)], {
  stdio: "inherit",
});
vitest.on("exit", (code) => {
  stopHogs();
  process.stdout.write(
    `test:stress: ${hogs.length} CPU hogs, the suite took ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
  process.exit(code ?? 1);
});
