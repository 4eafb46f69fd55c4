import { isSwapCursor } from "../../api/swapCursor.js";
import { BadRequestError } from "../../errors.js";

/** The 400 of a `cursor` this server could not have given. */
export const INVALID_CURSOR_MESSAGE =
  "cursor is not valid: pass the X-Next-Cursor header of a previous answer.";

/** The `cursor` of a paged list, past its schema: one this server could have given. */
export function readCursor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isSwapCursor(value)) throw new BadRequestError(INVALID_CURSOR_MESSAGE);
  return value;
}
