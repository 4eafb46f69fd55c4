import { type Address, encodeFunctionData, getContractAddress, type Hex, maxUint256 } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import type { DevnetToken } from "../devnetTypes.js";
import { usdToUnits } from "../usdToUnits.js";
import { devnetTokenAbi } from "./devnetAbis.js";

/** Setup transactions collected in order, for the caller to send: deployments, approvals, mints. */
export interface SetupBatch {
  /** The transactions queued so far, in order. */
  readonly txs: TxRequest[];
  /** Queues a contract creation by the deployer at its next nonce; returns the contract's address. */
  deploy(data: Hex, gas: bigint): Address;
  /** Queues `from`'s infinite approval of `spender` for `token`. */
  approve(from: Address, token: Address, spender: Address): void;
  /** Queues the deployer minting `usd` worth of a DevnetToken to `to`. */
  mint(token: DevnetToken, to: Address, usd: bigint): void;
}

/** A batch of setup transactions sent by `deployer` (and approvals by anyone), nonces from `writer`. */
export function createSetupBatch(writer: ChainWriter, deployer: Address): SetupBatch {
  const txs: TxRequest[] = [];
  return {
    txs,
    deploy(data, gas) {
      // The nonce is reserved now, so the address is known before the batch is sent.
      const nonce = writer.reserveNonce(deployer);
      txs.push({ from: deployer, data, gas, nonce });
      return getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Address;
    },
    approve(from, token, spender) {
      txs.push({
        from,
        to: token,
        gas: 100_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "approve",
          args: [spender, maxUint256],
        }),
      });
    },
    mint(token, to, usd) {
      txs.push({
        from: deployer,
        to: token.address,
        gas: 120_000n,
        data: encodeFunctionData({
          abi: devnetTokenAbi,
          functionName: "mint",
          args: [to, usdToUnits(usd, token.priceE18, token.decimals)],
        }),
      });
    },
  };
}
