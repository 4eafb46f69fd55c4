import { type DestinationStream, type Logger, pino } from "pino";
import { isColorSupported, prettyFactory } from "pino-pretty";
import { redactSecrets } from "./config/redactSecrets.js";

/** Options of createLogger. */
export interface CreateLoggerOptions {
  /** pino level (validated by loadConfig). */
  level: string;
  /** Human lines (pino-pretty) instead of JSON (default: when stdout is a terminal). */
  pretty?: boolean;
  /** Where each finished line goes (default: stdout). */
  write?: (line: string) => void;
}

/**
 * The process logger: JSON lines (pino) for machines, human lines on a terminal, and every line,
 * whatever logged it and however deep the URL sits in an error text, passed through
 * redactSecrets before it is written, so RPC keys and database passwords never reach a log.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  let write = options.write;
  if (write === undefined) {
    // Synchronous, as pino's default: lines logged just before process.exit are not lost.
    const stdout = pino.destination({ dest: 1, sync: true });
    write = (line) => stdout.write(line);
  }
  const format = pretty
    ? prettyFactory({
        colorize: options.write === undefined && isColorSupported,
        translateTime: "SYS:HH:MM:ss.l",
        ignore: "pid,hostname",
      })
    : undefined;
  const sink = write;
  const destination: DestinationStream = {
    write(line: string) {
      const safe = redactSecrets(line);
      sink(format === undefined ? safe : format(safe));
    },
  };
  return pino({ level: options.level }, destination);
}
