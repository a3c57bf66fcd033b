// Named defaults. The README's option table quotes these; change both together.
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;
export const DEFAULT_INTERACTION_TTL_S = 600;
export const DEFAULT_MAX_SESSIONS = 16;
export const DEFAULT_SPARE_SESSIONS = 1;
export const DEFAULT_SESSION_WAIT_S = 30;
export const DEFAULT_CALL_TIMEOUT_S = 600;
export const DEFAULT_GATHER_WINDOW_MS = 25;
export const DEFAULT_IDLE_SESSION_TTL_S = 300;
export const DEFAULT_CONNECT_TIMEOUT_S = 30;
export const DEFAULT_LOG_LEVEL = 'info';
export const DEFAULT_LEGACY_CLIENTS = 'pass';
/** The longest timer Node accepts; the v1 SDK's timeout must never be Infinity (it would fire after 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
