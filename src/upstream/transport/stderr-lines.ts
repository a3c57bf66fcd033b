// Splits a legacy child's stderr into lines for the log, each cut to a bounded length: a child may
// write a line of any size, or never end one, and what it writes must not grow the proxy's memory
// nor the cost of anything done per line. What a cut dropped is counted, not kept. Pure: no I/O.

/** The most of one stderr line that is kept (and logged); the rest is counted. */
export const STDERR_LINE_BYTES = 8 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface StderrLine {
  /** The line, at most the limit's bytes of it, decoded as UTF-8, without its `\n` (or `\r\n`). */
  text: string;
  /** Bytes of the line past the limit, dropped. */
  droppedBytes: number;
}

export class StderrLines {
  /** The kept start of the line not yet ended, and the bytes it dropped so far. */
  private pieces: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly maxLineBytes = STDERR_LINE_BYTES) {}

  /** The lines `chunk` ends. */
  push(chunk: Buffer): StderrLine[] {
    const lines: StderrLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.keep(chunk.subarray(start, nl));
      lines.push(this.take(true));
      start = nl + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
    return lines;
  }

  /** The last line, when the stream ended without its newline. */
  end(): StderrLine | undefined {
    return this.kept > 0 || this.dropped > 0 ? this.take(false) : undefined;
  }

  private keep(bytes: Buffer): void {
    const room = this.maxLineBytes - this.kept;
    const kept = bytes.length <= room ? bytes : bytes.subarray(0, room);
    // A copy: the chunk it comes from would otherwise stay in memory as long as the piece.
    if (kept.length > 0) this.pieces.push(Buffer.from(kept));
    this.kept += kept.length;
    this.dropped += bytes.length - kept.length;
  }

  private take(ended: boolean): StderrLine {
    const line = Buffer.concat(this.pieces, this.kept);
    // A `\r` before the newline is part of the line ending, unless the cut dropped what followed it.
    const end = ended && this.dropped === 0 && line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.length - 1 : line.length;
    const taken = { text: line.toString('utf8', 0, end), droppedBytes: this.dropped };
    this.pieces = [];
    this.kept = 0;
    this.dropped = 0;
    return taken;
  }
}
