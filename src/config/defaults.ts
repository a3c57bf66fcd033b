// Named defaults of the options outside the limits table. The README's option table quotes these;
// change both together. The limits' defaults live in the table in limits.ts.
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;
export const DEFAULT_LOG_LEVEL = 'info';
export const DEFAULT_LEGACY_CLIENTS = 'pass';
/** The audit file is renamed to FILE.1 when it would grow past this. */
export const DEFAULT_AUDIT_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_ACCESS_LOG = 'on';
/** Plain tools/call requests skip the official front's per-request machinery (front/fast-lane.ts). */
export const DEFAULT_FAST_LANE = 'on';
/** The longest timer Node accepts; the v1 SDK's timeout must never be Infinity (it would fire after 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
