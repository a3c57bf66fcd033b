// A front handler's failure as the v2 SDK's ProtocolError (which the SDK writes on the wire as a
// JSON-RPC error), encoded by protocol/encode-error.ts like every other front's.
import { ProtocolError } from '@modelcontextprotocol/server';
import { encodeError } from '../protocol/encode-error.js';
import type { FrontRequest } from '../telemetry/front-request.js';
import type { Logger } from '../telemetry/logger.js';

/** `record`: the front request answered with it, whose telemetry learns the code. */
export function toProtocolError(err: unknown, log: Logger, record: FrontRequest | undefined): ProtocolError {
  const wire = encodeError(err, log);
  record?.error(wire.code);
  return new ProtocolError(wire.code, wire.message, wire.data);
}
