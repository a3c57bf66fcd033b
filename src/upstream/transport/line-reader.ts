// Splits a legacy server's stdout into lines (one JSON-RPC message each, MCP's stdio framing).
// It replaces the v1 SDK's ReadBuffer, which validated every message with a zod union (a pass-through
// call's costliest step over stdio, as it was over HTTP: see jsonrpc-message.ts) and concatenated
// the whole unread buffer again on every chunk, so a large message arriving in many pipe chunks
// cost time quadratic in its size. Here the pieces of an unfinished line are joined once, when its
// newline arrives. Pure: no I/O.

/** The SDK's limit for one message (STDIO_DEFAULT_MAX_BUFFER_SIZE), kept: 10 MiB. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineReader {
  /** The pieces of the line not yet ended, and their length in bytes. */
  private pieces: Buffer[] = [];
  private pending = 0;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  /**
   * The lines `chunk` completes, decoded as UTF-8 without their `\n` (or `\r\n`). Throws, and
   * forgets what it held, once a line grows past the limit: the stream can no longer be framed.
   */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      lines.push(this.finish(chunk.subarray(start, nl)));
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.check(this.pending + rest.length);
      this.pieces.push(rest);
      this.pending += rest.length;
    }
    return lines;
  }

  /** Whether part of a line has arrived without its end. */
  get holding(): boolean {
    return this.pending > 0;
  }

  /** Drops an unfinished line. */
  clear(): void {
    this.pieces = [];
    this.pending = 0;
  }

  private finish(last: Buffer): string {
    this.check(this.pending + last.length);
    const line = this.pending === 0 ? last : Buffer.concat([...this.pieces, last], this.pending + last.length);
    this.clear();
    const end = line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
    return line.toString('utf8', 0, end);
  }

  private check(bytes: number): void {
    if (bytes <= this.maxLineBytes) return;
    this.clear();
    throw new Error(`a message from the legacy server exceeded ${this.maxLineBytes} bytes`);
  }
}
