import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hash,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
} from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import { uniswapV2RouterAbi } from "../deploy/devnetAbis.js";
import type { DevnetDex } from "../devnetTypes.js";

/**
 * HostileToken.sol: a working ERC-20 whose metadata attacks its readers.
 * @internal exported for tests, which call the devnet's tokens with it.
 */
export const hostileTokenAbi = parseAbi([
  "constructor(uint8 kind_, string name_, string symbol_, uint256 initialSupply)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function approve(address spender, uint256 amount) returns (bool)",
]);

/** Lowercase addresses of a chain's hostile tokens; no token list names them. */
export interface HostileTokenAddresses {
  /** name() and symbol() of 1,000,000 bytes ("HUGE" repeated): ~2.2M gas to read. */
  huge: Address;
  /** name() and symbol() of 65,536 bytes ("Long" repeated): cheap to read. */
  long: Address;
  /** HOSTILE_TEXT's name and symbol: control characters, a bidi override, a zero-width space, an apostrophe and HTML. */
  dirty: Address;
  /** decimals() 255. */
  wideDecimals: Address;
  /** decimals() burns all the gas it is given. */
  gasBurner: Address;
  /** decimals() burns all but 3,000 gas of what it is given, then reverts. */
  revertBurner: Address;
  /** The pool of `dirty` and the wrapped native on the first DEX, when one was seeded. */
  dirtyPool: Address | undefined;
}

/** Name and symbol of the `dirty` token as the chain returns them. */
const HOSTILE_TEXT = {
  name: "Evil\u0000\u0007 <b>Pooh's</b>\u202e <img src=x onerror=__x=1>\u200b Tøkén 币\n\tcoin",
  symbol: "\u001b[31m<img src=x onerror=__x=1>\u200b\r\n",
} as const;

// Kinds of HostileToken.sol.
const KIND = { huge: 0, long: 1, dirty: 2, wideDecimals: 3, gasBurner: 4, revertBurner: 5 } as const;
const SUPPLY = 10n ** 30n;
// The `dirty` token's pool: 1,000,000 tokens against 10 native coins.
const POOL_TOKENS = 10n ** 24n;
const POOL_NATIVE = 10n ** 19n;

/**
 * Sends the deployments of one HostileToken per attack and, with `pool`, a pool of the `dirty`
 * token and the wrapped native on that DEX (so looking it up discovers a pool). Not mined yet.
 */
export async function deployHostileTokens(
  writer: ChainWriter,
  options: {
    bytecode: Hex;
    deployer: Address;
    pool?: { dex: DevnetDex; wrapped: Address; pairInitCodeHash: Hash };
  },
): Promise<{ tokens: HostileTokenAddresses; hashes: Hash[] }> {
  const { deployer, pool } = options;
  const txs: TxRequest[] = [];
  const deploy = (kind: number, name: string, symbol: string): Address => {
    const nonce = writer.reserveNonce(deployer);
    txs.push({
      from: deployer,
      data: encodeDeployData({
        abi: hostileTokenAbi,
        bytecode: options.bytecode,
        args: [kind, name, symbol, SUPPLY],
      }),
      gas: 3_000_000n,
      nonce,
    });
    return getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Address;
  };
  const tokens: HostileTokenAddresses = {
    huge: deploy(KIND.huge, "", ""),
    long: deploy(KIND.long, "", ""),
    dirty: deploy(KIND.dirty, HOSTILE_TEXT.name, HOSTILE_TEXT.symbol),
    wideDecimals: deploy(KIND.wideDecimals, "Wide Decimals", "WIDE"),
    gasBurner: deploy(KIND.gasBurner, "Gas Burner", "BURN"),
    revertBurner: deploy(KIND.revertBurner, "Revert Burner", "RBURN"),
    dirtyPool: undefined,
  };
  if (pool !== undefined) {
    txs.push(
      {
        from: deployer,
        to: tokens.dirty,
        gas: 100_000n,
        data: encodeFunctionData({
          abi: hostileTokenAbi,
          functionName: "approve",
          args: [pool.dex.router, maxUint256],
        }),
      },
      {
        from: deployer,
        to: pool.dex.router,
        gas: 5_000_000n,
        value: POOL_NATIVE,
        data: encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "addLiquidityETH",
          args: [tokens.dirty, POOL_TOKENS, 0n, 0n, deployer, maxUint256],
        }),
      },
    );
    const [token0, token1] =
      tokens.dirty < pool.wrapped ? [tokens.dirty, pool.wrapped] : [pool.wrapped, tokens.dirty];
    tokens.dirtyPool = getContractAddress({
      opcode: "CREATE2",
      from: pool.dex.factory,
      salt: keccak256(encodePacked(["address", "address"], [token0, token1])),
      bytecodeHash: pool.pairInitCodeHash,
    }).toLowerCase() as Address;
  }
  return { tokens, hashes: await writer.send(txs) };
}
