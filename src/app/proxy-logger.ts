// The proxy's logger for a configuration: its level, its format (or the terminal's default), and
// every state key blanked out of every line in each of the encodings it could be written in (a
// legacy child's relayed stderr could hold it).
import type { ProxyConfig } from '../config/types.js';
import { createLogger, type Logger, stderrStyle } from '../telemetry/logger.js';

/** `env` decides the color of pretty lines (NO_COLOR, FORCE_COLOR). */
export function proxyLogger(config: ProxyConfig, env: Record<string, string | undefined>): Logger {
  const keys = [config.stateKey.bytes, ...config.stateKey.keys].map((k) => Buffer.from(k));
  return createLogger(
    config.logLevel,
    keys.flatMap((k) => [k.toString('base64url'), k.toString('base64'), k.toString('hex')]),
    stderrStyle(config.logFormat, env),
  );
}
