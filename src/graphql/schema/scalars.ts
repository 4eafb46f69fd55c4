import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql";
import { parseTimestamp } from "../../api/parseTimestamp.js";
import { BadRequestError } from "../../errors.js";

// Long enough for any uint256 with a sign; longer inputs are rejected before BigInt() parses them.
const INTEGER = /^-?\d{1,80}$/;
const DECIMAL = /^-?\d{1,80}(\.\d{1,80})?$/;

function literalText(node: ValueNode): string | undefined {
  return node.kind === Kind.STRING || node.kind === Kind.INT ? node.value : undefined;
}

function parseBigInt(value: unknown): bigint {
  if (typeof value === "string" && INTEGER.test(value)) return BigInt(value);
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  throw new BadRequestError('BigInt must be a base-10 integer string, e.g. "1000000000000000000".');
}

function parseDecimal(value: unknown): string {
  if (typeof value === "string" && DECIMAL.test(value)) return value;
  throw new BadRequestError('Decimal must be a plain decimal string, e.g. "1.5".');
}

/** Integers of any size as base-10 strings (amounts, block numbers). */
export const BigIntScalar = new GraphQLScalarType<bigint, string>({
  name: "BigInt",
  serialize(value) {
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "string" && INTEGER.test(value)) return value;
    if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
    throw new GraphQLError(`BigInt cannot represent ${typeof value} value.`);
  },
  parseValue: parseBigInt,
  parseLiteral: (node) => parseBigInt(literalText(node)),
});

/** Exact decimals as plain strings (prices, USD values). */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: "Decimal",
  serialize(value) {
    if (typeof value === "string" && DECIMAL.test(value)) return value;
    throw new GraphQLError("Decimal cannot represent a non-decimal value.");
  },
  parseValue: parseDecimal,
  parseLiteral: (node) => parseDecimal(node.kind === Kind.STRING ? node.value : undefined),
});

/** Unix seconds; input also accepts ISO-8601 strings. */
export const TimestampScalar = new GraphQLScalarType<number, number>({
  name: "Timestamp",
  serialize(value) {
    if (typeof value === "number" && Number.isSafeInteger(value)) return value;
    throw new GraphQLError("Timestamp cannot represent a non-integer value.");
  },
  parseValue: parseTimestamp,
  parseLiteral: (node) => parseTimestamp(node.kind === Kind.INT ? Number(node.value) : literalText(node)),
});
