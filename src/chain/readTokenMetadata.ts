import type { Address } from "viem";
import type { Token } from "../domain/types.js";
import { buildTokenMetadataRead } from "./buildTokenMetadataRead.js";
import type { RpcClient } from "./createRpcClient.js";
import { runBatchedReads } from "./runBatchedReads.js";

/**
 * Name, symbol and decimals of an ERC-20 in one eth_call at the latest block (old state may be
 * pruned), each read gas-capped inside it (buildTokenMetadataRead). Throws NotErc20Error when
 * decimals() does not answer a uint8 (no code, revert, out of gas), InvalidTokenMetadataError
 * when it exceeds MAX_DECIMALS, and RpcError when the chain cannot be reached.
 */
export async function readTokenMetadata(
  client: RpcClient,
  address: Address,
  options: { network?: string } = {},
): Promise<Token> {
  const network = options.network ?? client.chain?.name ?? "this network";
  const [token] = await runBatchedReads(client, [buildTokenMetadataRead(address, network)]);
  return token;
}
