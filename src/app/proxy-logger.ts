// The proxy's logger for a configuration: its level, and the state key blanked out of every line
// in each of the encodings it could be written in (a legacy child's relayed stderr could hold it).
import type { ProxyConfig } from '../config/types.js';
import { createLogger, type Logger } from '../telemetry/logger.js';

export function proxyLogger(config: ProxyConfig): Logger {
  const key = Buffer.from(config.stateKey.bytes);
  return createLogger(config.logLevel, [key.toString('base64url'), key.toString('base64'), key.toString('hex')]);
}
