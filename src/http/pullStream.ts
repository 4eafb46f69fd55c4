import { Readable } from "node:stream";

/**
 * A byte stream that asks `pieces` for the next piece only when its consumer wants more: no
 * read-ahead (Readable.from keeps pulling while the consumer is paused but its buffer is empty),
 * so a page is read only once the socket took the previous one. Destroying it (client gone)
 * returns the generator.
 */
export function pullStream(pieces: AsyncGenerator<Buffer>): Readable {
  return new Readable({
    highWaterMark: 0,
    read() {
      pieces.next().then(
        ({ done, value }) => this.push(done === true ? null : value),
        (error: unknown) => this.destroy(error as Error),
      );
    },
    destroy(error, callback) {
      pieces.return(undefined).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}
