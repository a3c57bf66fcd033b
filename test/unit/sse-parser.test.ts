import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createParser } from 'eventsource-parser';
import { SseParser, type SseEvent } from '../../src/upstream/transport/sse-parser.js';

/** Feeds `chunks` (strings as UTF-8, or raw bytes) and returns what the parser reported. */
function parse(chunks: Array<string | Buffer>): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) });
  for (const c of chunks) parser.feed(typeof c === 'string' ? Buffer.from(c) : c);
  return { events, retries };
}

/** What eventsource-parser (which the transport used before) reports for the same text. */
function reference(text: string): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const p = createParser({ onEvent: (e) => events.push({ id: e.id, event: e.event, data: e.data }), onRetry: (ms) => retries.push(ms) });
  p.feed(text);
  return { events, retries };
}

/** Every way of cutting `text` into two chunks, byte by byte. */
function splits(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  return Array.from({ length: bytes.length + 1 }, (_, i) => [bytes.subarray(0, i), bytes.subarray(i)]);
}

const STREAMS = [
  'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
  'id: 7\ndata:\n\n',
  'id: a\nevent: message\ndata: one\ndata: two\n\ndata: three\n\n',
  'retry: 1500\n\n: a comment\ndata: x\r\n\r\ndata: y\r\rdata: z\n\n',
  'event: ping\ndata: p\n\nevent\ndata\n\ndata:  two spaces\n\n',
  'id: has\u0000nul\ndata: kept\n\nretry: 12x\nfoo: bar\ndata: é → ü 日本\n\n',
  'data: no end of event',
];

describe('SSE parser', () => {
  it('reports what eventsource-parser reported, however the bytes are cut', () => {
    for (const text of STREAMS) {
      const want = reference(text);
      assert.deepEqual(parse([text]), want, text);
      for (const chunks of splits(text)) assert.deepEqual(parse(chunks), want, JSON.stringify(text));
    }
  });

  it('keeps a character whose bytes arrive in two chunks whole', () => {
    const bytes = Buffer.from('data: 日\n\n');
    for (let i = 7; i < 9; i++) assert.deepEqual(parse([bytes.subarray(0, i), bytes.subarray(i)]).events, [{ id: undefined, event: undefined, data: '日' }]);
  });

  it('drops a UTF-8 byte order mark at the start of the stream only, even cut', () => {
    const want = [{ id: undefined, event: 'message', data: 'x' }];
    assert.deepEqual(parse(['\uFEFFevent: message\ndata: x\n\n']).events, want);
    assert.deepEqual(parse([Buffer.from([0xef]), Buffer.from([0xbb, 0xbf]), 'event: message\ndata: x\n\n']).events, want);
    assert.deepEqual(parse(['data: a\n\n', '\uFEFFdata: b\n\n']).events.length, 1);
  });

  it('ends a line at CR, LF or CRLF, also when the CRLF is cut between chunks', () => {
    assert.deepEqual(parse(['data: a\r', '\ndata: b\r', '\r']).events, [{ id: undefined, event: undefined, data: 'a\nb' }]);
  });

  it('keeps nothing of an event once it has been dispatched', () => {
    const { events } = parse(['id: 1\nevent: x\ndata: a\n\n', 'data: b\n\n']);
    assert.deepEqual(events[1], { id: undefined, event: undefined, data: 'b' });
  });
});
