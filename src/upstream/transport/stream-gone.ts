// The one error that says "the connection to the legacy server is gone". Transports raise it (or
// have their errors classified into it) where they see the loss; the session reacts to the type,
// never to the text of a message.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export class StreamGoneError extends Error {
  override readonly name = 'StreamGoneError';
}

/** Socket-level failures that mean the peer or the path to it is gone. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function networkCode(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 3) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  return networkCode((err as { cause?: unknown }).cause, depth + 1);
}

/** A socket-level failure becomes a StreamGoneError; anything else is returned as it is. */
export function classifyNetworkError(err: Error): Error {
  if (err instanceof StreamGoneError || networkCode(err) === undefined) return err;
  return new StreamGoneError(err.message, { cause: err });
}

/**
 * Routes a transport's errors through `classify` before whoever sets `onerror` sees them (for
 * transports the proxy does not own, such as the SDK's HTTP+SSE client).
 */
export function classifyErrors<T extends Transport>(transport: T, classify: (err: Error) => Error): T {
  let wrapped: ((err: Error) => void) | undefined;
  Object.defineProperty(transport, 'onerror', {
    configurable: true,
    get: () => wrapped,
    set: (handler: ((err: Error) => void) | undefined) => {
      wrapped = handler && ((err: Error) => handler(classify(err)));
    },
  });
  return transport;
}
