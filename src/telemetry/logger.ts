// Structured logging. Every line goes to stderr as JSON: stdout may belong to a stdio transport.
// Secrets never reach this module: callers log handles, counts and reasons, never keys, states or answers.
import winston from 'winston';
import { LOG_LEVELS, type LogLevel } from './log-levels.js';

export { LOG_LEVELS, type LogLevel };

export type Logger = winston.Logger;

/**
 * `secrets` are blanked out of every string field of every line: a last guard for text the proxy
 * relays but does not write itself (a legacy child's stderr, which could have read the key from
 * the proxy's /proc/PID/environ or command line).
 */
export function createLogger(level: LogLevel, secrets: readonly string[] = []): Logger {
  const hidden = secrets.filter((s) => s.length >= 8);
  const redact = winston.format((info) => {
    for (const [k, v] of Object.entries(info)) {
      if (typeof v === 'string' && hidden.some((s) => v.includes(s))) info[k] = hidden.reduce((t, s) => t.split(s).join('[redacted]'), v);
    }
    return info;
  });
  const logger = winston.createLogger({
    level,
    format: winston.format.combine(redact(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console({ stderrLevels: [...LOG_LEVELS] })],
  });
  skipDisabledLevels(logger);
  return logger;
}

/**
 * winston drops a line below the level only inside its stream, after it has built the entry and
 * written it through the stream's machinery (~3 µs each); the hot path has debug lines that are
 * off in production. Each level's method asks first. Child loggers inherit the methods, and a
 * changed `level` applies at once.
 */
function skipDisabledLevels(logger: Logger): void {
  const methods = logger as unknown as Record<LogLevel, (...args: unknown[]) => Logger>;
  for (const level of LOG_LEVELS) {
    const write = methods[level];
    methods[level] = function (this: Logger, ...args: unknown[]) {
      return this.isLevelEnabled(level) ? write.apply(this, args) : this;
    };
  }
}
