import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64" };

/**
 * Path of the anvil executable shipped by @foundry-rs/anvil's platform package. The package's
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
    throw new Error(`anvil: package ${pkg} is not installed (npm install @foundry-rs/anvil)`, { cause });
  }
  const binary = join(dirname(pkgJson), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  if (!existsSync(binary)) throw new Error(`anvil: ${binary} is missing`);
  return binary;
}
