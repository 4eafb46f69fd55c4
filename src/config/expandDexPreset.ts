import type { z } from "zod";
import type { Address } from "../domain/types.js";
import { DEX_PRESETS, type DexPresetName, getDexPreset } from "./dexPresets.js";
import type { DexConfig, DexKind } from "./types.js";

/** A `dexes[]` entry as the file gives it: a preset, explicit keys, or both. */
export interface DexEntry {
  name: string;
  preset?: DexPresetName | undefined;
  kind?: DexKind | undefined;
  factory?: Address | undefined;
  deployer?: Address | undefined;
  router?: Address | undefined;
  feeBps?: number | undefined;
}

/**
 * One `dexes[]` entry with its preset's deployment on `chainId` filled in (the entry's own keys
 * win), checked as a whole: a factory, and feeBps exactly when the kind is uniswap-v2. Problems
 * are added to `ctx` at the entry's path (`preset`, `factory`, `feeBps`); the result is then
 * undefined.
 */
export function expandDexPreset(
  entry: DexEntry,
  chainId: number,
  ctx: z.RefinementCtx,
  path: (string | number)[],
): DexConfig | undefined {
  const preset = entry.preset === undefined ? undefined : getDexPreset(entry.preset, chainId);
  if (entry.preset !== undefined && preset === undefined) {
    const chains = Object.keys(DEX_PRESETS[entry.preset]).join(", ");
    ctx.addIssue({
      code: "custom",
      path: [...path, "preset"],
      message: `preset "${entry.preset}" has no official deployment on chain ${chainId} (it has on chain ${chains}): give kind and factory instead`,
    });
    return undefined;
  }
  const kind = entry.kind ?? preset?.kind ?? "uniswap-v2";
  // A preset's fee is a V2 fee; a V3 preset's 0 must not reach an entry that overrode its kind.
  const feeBps =
    entry.feeBps ?? (preset?.kind === "uniswap-v2" && kind === "uniswap-v2" ? preset.feeBps : undefined);
  const factory = entry.factory ?? preset?.factory;
  const deployer = entry.deployer ?? preset?.deployer;
  const router = entry.router ?? preset?.router;
  let valid = true;
  if (factory === undefined) {
    valid = false;
    ctx.addIssue({
      code: "custom",
      path: [...path, "factory"],
      message: "expected the DEX's factory address, or a preset that gives it",
    });
  }
  if (kind === "uniswap-v2" && feeBps === undefined) {
    valid = false;
    ctx.addIssue({
      code: "custom",
      path: [...path, "feeBps"],
      message: "a uniswap-v2 DEX needs its feeBps (30 for Uniswap V2, 25 for PancakeSwap V2)",
    });
  }
  if (kind !== "uniswap-v2" && feeBps !== undefined) {
    valid = false;
    ctx.addIssue({
      code: "custom",
      path: [...path, "feeBps"],
      message: `a ${kind} DEX has a fee per pool: leave feeBps out`,
    });
  }
  if (!valid || factory === undefined) return undefined;
  // exactOptionalPropertyTypes: optional keys are left out rather than set to undefined.
  return {
    name: entry.name,
    kind,
    factory,
    feeBps: feeBps ?? 0,
    ...(router === undefined ? {} : { router }),
    ...(deployer === undefined ? {} : { deployer }),
  };
}
