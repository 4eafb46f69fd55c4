/** Derives independent 32-bit seeds per network and purpose from the devnet seed. */
export function mixSeed(seed: number, chainId: number, purpose: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ chainId, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (purpose + 0x27d4eb2f), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}
