// Reads one SSE response of the legacy HTTP transport: parses its bytes, remembers the last event
// id (for resumption), hands `message` events to the transport and tells it when the stream ends.
// A held call's POST stream stays open for as long as its user thinks, so what it keeps is one
// small object per stream: the response's listeners are module functions that find the reader on
// the response itself (an EventEmitter calls its listeners with `this` set to itself).
import type http from 'node:http';
import { SseParser, type SseEvent, type SseSink } from './sse-parser.js';

export interface SseReadOptions {
  /** The stream resumes after this event id. */
  lastEventId?: string;
  onresumptiontoken?: (token: string) => void;
}

/** How a stream the transport did not close ended. */
export interface SseStreamEnd<O> {
  opts: O;
  /** The last event id seen (or the one it resumed after). */
  lastEventId: string | undefined;
  /** An event with an id arrived: the server supports resuming this stream. */
  primed: boolean;
  /** The response ended normally (false: the connection was lost). */
  complete: boolean;
  reconnectable: boolean;
}

export interface SseStreamOwner<O> {
  /** The data of a `message` event. */
  deliver(data: string, opts: O): void;
  /** The server's `retry` field. */
  retry(ms: number): void;
  closed(end: SseStreamEnd<O>): void;
}

const READER = Symbol('mrtr-proxy sse reader');
type WithReader = http.IncomingMessage & { [READER]?: SseStreamReader<SseReadOptions> };

/** Reads `response` as an SSE stream until it closes. */
export function readSseStream<O extends SseReadOptions>(response: http.IncomingMessage, owner: SseStreamOwner<O>, opts: O, reconnectable: boolean): void {
  (response as WithReader)[READER] = new SseStreamReader(owner, opts, reconnectable) as unknown as SseStreamReader<SseReadOptions>;
  response.on('data', onData);
  response.on('error', ignore); // 'close' reports it
  response.once('close', onClose);
}

function onData(this: WithReader, chunk: Buffer | string): void {
  this[READER]?.parser.feed(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
}

function onClose(this: WithReader): void {
  const reader = this[READER];
  this[READER] = undefined;
  reader?.closed(this.complete);
}

function ignore(): void {}

class SseStreamReader<O extends SseReadOptions> implements SseSink {
  readonly parser: SseParser = new SseParser(this);
  private lastEventId: string | undefined;
  private primed = false;

  constructor(
    private readonly owner: SseStreamOwner<O>,
    private readonly opts: O,
    private readonly reconnectable: boolean,
  ) {
    this.lastEventId = opts.lastEventId;
  }

  onEvent(event: SseEvent): void {
    if (event.id) {
      this.lastEventId = event.id;
      this.primed = true;
      this.opts.onresumptiontoken?.(event.id);
    }
    if (!event.data || (event.event && event.event !== 'message')) return;
    this.owner.deliver(event.data, this.opts);
  }

  onRetry(ms: number): void {
    this.owner.retry(ms);
  }

  closed(complete: boolean): void {
    const { opts, lastEventId, primed, reconnectable } = this;
    this.owner.closed({ opts, lastEventId, primed, complete, reconnectable });
  }
}
