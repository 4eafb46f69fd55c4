import {
  type AmountFields,
  type ExportSwapNode,
  SWAP_ROW_KEYS,
  SWAP_SIDE_KEYS,
  type SwapNode,
  type TokenFields,
} from "./swapRow.js";

/** Renders a list of swaps, page by page, as the bytes of its JSON array (or NDJSON lines). */
export interface SwapRowRenderer<Node extends SwapNode = SwapNode> {
  /**
   * The bytes of a page's swaps in the list: the first call opens the array, the elements are
   * separated by commas across pages, and the call with `last` closes the array, so the pages'
   * bytes concatenate to the list's JSON text.
   */
  render(edges: readonly { node: Node }[], last: boolean): Buffer;
  /**
   * The same as render(edges, false), with the part of those bytes that is the page's elements
   * alone (joined by commas, without what precedes the first: "[" or a comma).
   */
  renderElements(edges: readonly { node: Node }[]): { piece: Buffer; elements: Buffer };
  /**
   * What goes before `rows` elements rendered elsewhere (kept bytes): "[" when the list is not
   * open yet, a comma after other elements, else nothing. Counts them as rendered.
   */
  join(rows: number): Buffer;
}

/** A token's opening of its REST object, kept with the values it was made of. */
interface TokenBytes {
  name: string;
  symbol: string;
  decimals: number;
  bytes: Uint8Array;
}

// Distinct tokens a renderer keeps; past that it starts over (memory stays bounded however many
// tokens a window has; a day of one network has a few thousand at most).
const MAX_TOKENS = 4_096;
// A swap's element is about 520 bytes: a page's buffer seldom has to grow.
const BYTES_PER_SWAP = 640;

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
// The row's keys come from its one description (swapRow.ts), written in its order.
const [TX_HASH_KEY, BLOCK_KEY, SELL_KEY, BUY_KEY, VOLUME_KEY] = SWAP_ROW_KEYS;
const [NAME_KEY, SYMBOL_KEY, DECIMALS_KEY, ADDRESS_KEY, AMOUNT_KEY, AMOUNT_DECIMAL_KEY] = SWAP_SIDE_KEYS;
const OPEN = ascii(`{"${TX_HASH_KEY}":`);
const BLOCK = ascii(`,"${BLOCK_KEY}":`);
const SELL = ascii(`,"${SELL_KEY}":`);
const AMOUNT = ascii(`,"${AMOUNT_KEY}":`);
const AMOUNT_DECIMAL = ascii(`,"${AMOUNT_DECIMAL_KEY}":`);
const BUY = ascii(`},"${BUY_KEY}":`);
const VOLUME = ascii(`},"${VOLUME_KEY}":`);
const LOG_INDEX = ascii(',"log_index":');
const TIMESTAMP = ascii(',"timestamp":');
const SENDER = ascii(',"sender":');
const TRACKED = ascii(',"tracked":');
const POOLS = ascii(',"pools":[');
const TRUE = ascii("true");
const FALSE = ascii("false");
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;
const CLOSE = 0x7d;
const ARRAY_OPEN = 0x5b;
const ARRAY_CLOSE = 0x5d;

/**
 * Creates the renderer of an /api/swaps_24h list: each swap of a page (swapNodeOf) straight to the
 * bytes of JSON.stringify of the spec's object for it ({tx_hash, block_number, sell_token:
 * {name, symbol, decimals, address, amount, amount_decimal}, buy_token: {...},
 * trade_volume_usd}; decimals as a string), without building that object or a string of the
 * page (joining half a megabyte of small strings and encoding the result cost more than the
 * rest of the rendering). Values are copied byte by byte while they are printable ASCII other
 * than `"` and `\`, which JSON.stringify writes as they are; any other value is written as
 * JSON.stringify writes it. A token's part is made once per renderer: a list repeats a few
 * tokens many times.
 */
export function createSwapRowRenderer(): SwapRowRenderer;
/**
 * With `ndjson`: the export's rows (GET /api/swaps_export), one JSON object per line, each the
 * list's object with log_index and timestamp after block_number, sender after them, tracked and
 * pools after trade_volume_usd; no array, no commas.
 */
export function createSwapRowRenderer(options: { ndjson: true }): SwapRowRenderer<ExportSwapNode>;
export function createSwapRowRenderer(options: { ndjson?: boolean } = {}): SwapRowRenderer<ExportSwapNode> {
  const ndjson = options.ndjson === true;
  const w = createByteWriter();
  let opened = false;
  let rendered = 0;

  /** Renders into a new buffer; `prefix` is the length of what precedes the first element. */
  function renderPage(
    edges: readonly { node: SwapNode | ExportSwapNode }[],
    last: boolean,
  ): { piece: Buffer; prefix: number } {
    // A page's own buffer: the stream holds it until the socket took it.
    w.start(2 + edges.length * BYTES_PER_SWAP);
    if (ndjson) {
      for (const { node } of edges) renderLine(w, node as ExportSwapNode);
      return { piece: w.piece(), prefix: 0 };
    }
    if (!opened) {
      w.byte(ARRAY_OPEN);
      opened = true;
    }
    const prefix = w.length() + (rendered > 0 && edges.length > 0 ? 1 : 0);
    for (const { node } of edges) {
      if (rendered++ > 0) w.byte(COMMA);
      renderElement(w, node);
    }
    if (last) w.byte(ARRAY_CLOSE);
    return { piece: w.piece(), prefix };
  }

  return {
    render: (edges, last) => renderPage(edges, last).piece,
    renderElements(edges) {
      const { piece, prefix } = renderPage(edges, false);
      return { piece, elements: piece.subarray(prefix) };
    },
    join(rows) {
      const separator = !opened ? "[" : rendered > 0 && rows > 0 ? "," : "";
      opened = true;
      rendered += rows;
      return Buffer.from(separator);
    },
  };
}

/** Writes a page's bytes into a growing buffer; keeps each token's bytes across pages. */
interface ByteWriter {
  /** Starts a new buffer of `size` bytes (grown when needed). */
  start(size: number): void;
  /** The bytes written since start(). */
  piece(): Buffer;
  /** How many bytes were written since start(). */
  length(): number;
  byte(code: number): void;
  put(bytes: Uint8Array): void;
  /** A JSON string: plain ASCII copied as it is, anything else through JSON.stringify. */
  string(value: string): void;
  integer(value: number): void;
  /** A side of a swap: the token's opening, then its amount and amount_decimal. */
  side(amount: AmountFields): void;
}

function createByteWriter(): ByteWriter {
  const tokens = new Map<string, TokenBytes>();
  let out = Buffer.alloc(0);
  let at = 0;

  function reserve(bytes: number): void {
    if (at + bytes <= out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(out.length * 2, at + bytes));
    out.copy(grown, 0, 0, at);
    out = grown;
  }

  function put(bytes: Uint8Array): void {
    reserve(bytes.length);
    out.set(bytes, at);
    at += bytes.length;
  }

  function string(value: string): void {
    const length = value.length;
    reserve(length + 2);
    const start = at;
    out[at++] = QUOTE;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === QUOTE || code === 0x5c) {
        at = start;
        const text = JSON.stringify(value);
        reserve(Buffer.byteLength(text));
        at += out.write(text, at, "utf8");
        return;
      }
      out[at++] = code;
    }
    out[at++] = QUOTE;
  }

  function tokenBytes(token: TokenFields): Uint8Array {
    const kept = tokens.get(token.address);
    // Keyed by address and checked field by field: a renamed token never shows an old name.
    if (
      kept !== undefined &&
      kept.name === token.name &&
      kept.symbol === token.symbol &&
      kept.decimals === token.decimals
    ) {
      return kept.bytes;
    }
    const json = JSON.stringify;
    const text = `{"${NAME_KEY}":${json(token.name)},"${SYMBOL_KEY}":${json(token.symbol)},"${DECIMALS_KEY}":${json(String(token.decimals))},"${ADDRESS_KEY}":${json(token.address)}`;
    const bytes = Buffer.from(text, "utf8");
    if (tokens.size >= MAX_TOKENS) tokens.clear();
    tokens.set(token.address, { name: token.name, symbol: token.symbol, decimals: token.decimals, bytes });
    return bytes;
  }

  return {
    start(size) {
      out = Buffer.allocUnsafe(size);
      at = 0;
    },
    piece: () => out.subarray(0, at),
    length: () => at,
    byte(code) {
      reserve(1);
      out[at++] = code;
    },
    put,
    string,
    integer: (value) => put(ascii(String(value))),
    side(amount) {
      put(tokenBytes(amount.token));
      put(AMOUNT);
      string(amount.amount);
      put(AMOUNT_DECIMAL);
      string(amount.amountDecimal);
    },
  };
}

/** A swap of the list: {tx_hash, block_number, sell_token, buy_token, trade_volume_usd}. */
function renderElement(w: ByteWriter, node: SwapNode): void {
  w.put(OPEN);
  w.string(node.txHash);
  w.put(BLOCK);
  w.string(node.blockNumber);
  w.put(SELL);
  w.side(node.sell);
  w.put(BUY);
  w.side(node.buy);
  w.put(VOLUME);
  w.string(node.volumeUSD);
  w.byte(CLOSE);
}

/** A row of the export: the list's object with its extra fields, and a newline. */
function renderLine(w: ByteWriter, node: ExportSwapNode): void {
  w.put(OPEN);
  w.string(node.txHash);
  w.put(LOG_INDEX);
  w.integer(node.logIndex);
  w.put(BLOCK);
  w.string(node.blockNumber);
  w.put(TIMESTAMP);
  w.integer(node.timestamp);
  w.put(SENDER);
  w.string(node.sender);
  w.put(SELL);
  w.side(node.sell);
  w.put(BUY);
  w.side(node.buy);
  w.put(VOLUME);
  w.string(node.volumeUSD);
  w.put(TRACKED);
  w.put(node.tracked ? TRUE : FALSE);
  w.put(POOLS);
  node.pools.forEach((pool, i) => {
    if (i > 0) w.byte(COMMA);
    w.string(pool);
  });
  w.byte(ARRAY_CLOSE);
  w.byte(CLOSE);
  w.byte(NEWLINE);
}
