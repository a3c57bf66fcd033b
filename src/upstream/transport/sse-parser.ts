// A server-sent events parser (WHATWG HTML, "event stream interpretation") that reads bytes. The
// legacy HTTP transport keeps one per open SSE stream, and a call waiting for its user keeps its
// POST stream open for as long as the person thinks: so the state is a few fields of one object,
// not a set of closures (eventsource-parser), and lines are cut on bytes, so no string decoder
// (with its own buffer) stays attached to the response. Cutting UTF-8 on CR and LF bytes is safe:
// neither byte occurs inside a multi-byte character. Behaves as eventsource-parser did for the
// transport: an event is dispatched only when it has a data line; unknown fields and comments are
// ignored; `id` is the event's own id field; an invalid `retry` is ignored.

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseSink {
  onEvent(event: SseEvent): void;
  onRetry(ms: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

export class SseParser {
  /** The bytes of a line not yet ended. */
  private rest: Buffer | undefined;
  private started = false;
  /** The previous chunk ended in CR: an LF opening this one belongs to it. */
  private afterCR = false;
  private data: string | undefined;
  private event: string | undefined;
  private id: string | undefined;

  constructor(private readonly sink: SseSink) {}

  feed(chunk: Buffer): void {
    let buf = this.rest === undefined ? chunk : Buffer.concat([this.rest, chunk]);
    this.rest = undefined;
    if (!this.started) {
      if (buf.length < 3 && isBomPrefix(buf)) {
        this.rest = buf;
        return;
      }
      this.started = true;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
    }
    let start = 0;
    if (this.afterCR && buf[0] === LF) start = 1;
    this.afterCR = false;
    for (let i = start; i < buf.length; i++) {
      const b = buf[i];
      if (b !== LF && b !== CR) continue;
      this.line(buf, start, i);
      if (b === CR) {
        if (i + 1 === buf.length) this.afterCR = true;
        else if (buf[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    if (start < buf.length) this.rest = buf.subarray(start);
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (start === end) return this.dispatch();
    if (buf[start] === COLON) return; // a comment
    let colon = buf.indexOf(COLON, start);
    if (colon === -1 || colon >= end) colon = end;
    const field = buf.toString('latin1', start, colon);
    let valueStart = colon + 1;
    if (valueStart < end && buf[valueStart] === SPACE) valueStart++;
    const value = valueStart >= end ? '' : buf.toString('utf8', valueStart, end);
    switch (field) {
      case 'data':
        this.data = this.data === undefined ? value : `${this.data}\n${value}`;
        return;
      case 'event':
        this.event = value || undefined;
        return;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        return;
      case 'retry':
        if (/^\d+$/.test(value)) this.sink.onRetry(Number.parseInt(value, 10));
        return;
    }
  }

  private dispatch(): void {
    const { data, event, id } = this;
    this.data = undefined;
    this.event = undefined;
    this.id = undefined;
    if (data !== undefined) this.sink.onEvent({ id, event, data });
  }
}

function isBomPrefix(buf: Buffer): boolean {
  const bom = [0xef, 0xbb, 0xbf];
  for (let i = 0; i < buf.length; i++) if (buf[i] !== bom[i]) return false;
  return true;
}
