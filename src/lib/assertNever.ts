/** The end of an exhaustive switch: a value TypeScript proves impossible, thrown if it comes anyway. */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
