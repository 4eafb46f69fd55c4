import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";

const require = createRequire(import.meta.url);

const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/** An `anvil` executable on PATH (e.g. installed with foundryup), if any. */
function anvilOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, process.platform === "win32" ? "anvil.exe" : "anvil");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Path of the anvil executable: ANVIL_BINARY, else the binary of @foundry-rs/anvil's platform
 * package (the project depends on the linux-amd64 one; on other platforms
 * `npm install @foundry-rs/anvil` brings the right one), else `anvil` on PATH. The packages'
 * own bin is a Node wrapper that can leave anvil running after a SIGTERM, so we spawn the binary.
 */
export function resolveAnvilBinary(): string {
  const fromEnv = process.env.ANVIL_BINARY;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const arch = ARCH[process.arch];
  if (arch === undefined) throw new Error(`anvil: no prebuilt binary for architecture ${process.arch}`);
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${pkg}/package.json`);
  } catch (cause) {
    const onPath = anvilOnPath();
    if (onPath !== undefined) return onPath;
    throw new Error(
      `anvil: package ${pkg} is not installed and no anvil is on PATH (npm install @foundry-rs/anvil, or install Foundry)`,
      { cause },
    );
  }
  const binary = join(dirname(pkgJson), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  if (!existsSync(binary)) throw new Error(`anvil: ${binary} is missing`);
  return binary;
}
