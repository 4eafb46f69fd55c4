import { NETWORKS, type NetworkName } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { isSwapCursor } from "../graphql/swapCursor.js";

const DEFAULT_NETWORK: NetworkName = "bsc";

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw new BadRequestError(`${name} was given more than once; give it once.`);
  return values[0];
}

/** The `network` query parameter: optional, default bsc; anything else than a known network is a 400. */
export function readNetwork(params: URLSearchParams): NetworkName {
  const value = single(params, "network");
  // An empty parameter counts as missing, as for every other parameter.
  if (value === undefined || value === "") return DEFAULT_NETWORK;
  const network = NETWORKS.find((name) => name === value);
  if (network === undefined) {
    const shown = JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}...` : value);
    throw new BadRequestError(`network ${shown} is not supported; use one of: ${NETWORKS.join(", ")}.`);
  }
  return network;
}

/** A required token query parameter (symbol or address); missing or empty is a 400. */
export function readTokenParam(params: URLSearchParams, name: string): string {
  const value = single(params, name);
  if (value === undefined || value === "") {
    throw new BadRequestError(`${name} is required: give a token symbol or a contract address.`);
  }
  return value;
}

/** The optional `limit` of a paged list: an integer 1..max; missing or empty means no limit. */
export function readLimit(params: URLSearchParams, max: number): number | undefined {
  const value = single(params, "limit");
  if (value === undefined || value === "") return undefined;
  const limit = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= max)) throw new BadRequestError(`limit must be an integer from 1 to ${max}.`);
  return limit;
}

/** The optional `cursor` of a paged list (an X-Next-Cursor this server gave); missing or empty: the start. */
export function readCursor(params: URLSearchParams): string | undefined {
  const value = single(params, "cursor");
  if (value === undefined || value === "") return undefined;
  if (!isSwapCursor(value)) {
    throw new BadRequestError("cursor is not valid: pass the X-Next-Cursor header of a previous answer.");
  }
  return value;
}
