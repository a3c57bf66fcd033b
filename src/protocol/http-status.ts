// HTTP statuses the 2026-07-28 HTTP binding wants for handler errors that the SDK sends as 200:
// 404 for an unknown method, 400 for a missing client capability. Pure.
import { JSONRPC } from './errors.js';

const STATUS_FOR_CODE: Readonly<Record<number, number>> = { [JSONRPC.METHOD_NOT_FOUND]: 404, [JSONRPC.MISSING_CLIENT_CAPABILITY]: 400 };

/** The status a whole JSON-RPC error body should carry, or undefined to keep the SDK's. */
export function statusFor(body: string): number | undefined {
  return statusForCode(errorCodeOf(body));
}

/** The status a JSON-RPC error code should carry, or undefined to keep the SDK's. */
export function statusForCode(code: number | undefined): number | undefined {
  return code === undefined ? undefined : STATUS_FOR_CODE[code];
}

/** The error code of a whole JSON-RPC body; undefined for a result or what is not JSON-RPC. */
export function errorCodeOf(body: string): number | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'number' ? code : undefined;
  } catch {
    return undefined;
  }
}
