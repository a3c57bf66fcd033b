// Reading one JSON-RPC response out of a 2026-07-28 server's SSE answer to a POST: the events are
// parsed by the byte-level parser the legacy HTTP transport uses (sse-parser.ts), the response is
// the message with the request's id and no method, and notifications on the way are handed on.
// The stream is given up as soon as the response is in.
import { isJsonObject, type JsonObject } from '../../protocol/json.js';
import { SseParser } from './sse-parser.js';

/** The response, or why there is none: the stream broke, or ended first. */
export type SseResponse = { response: JsonObject } | { failure: 'broke' | 'ended' };

export async function responseFromSse(
  body: ReadableStream<Uint8Array> | null,
  id: string,
  onNotification?: (message: JsonObject) => void,
): Promise<SseResponse> {
  let found: JsonObject | undefined;
  const parser = new SseParser({
    onEvent: (event) => {
      if (found !== undefined || !event.data) return;
      let m: unknown;
      try {
        m = JSON.parse(event.data);
      } catch {
        // Not JSON: not the response.
        return;
      }
      if (!isJsonObject(m)) return;
      if (m['id'] === id && !('method' in m)) found = m;
      else if (onNotification && typeof m['method'] === 'string' && !('id' in m)) onNotification(m);
    },
    onRetry: () => {},
  });
  const reader = body?.getReader();
  try {
    while (reader && found === undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  } catch {
    return { failure: 'broke' };
  } finally {
    void reader?.cancel().catch(() => {});
  }
  return found === undefined ? { failure: 'ended' } : { response: found };
}
