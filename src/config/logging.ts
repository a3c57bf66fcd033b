// --log-level and --log-format (`logLevel:` and `logFormat:` in the file; MRTR_LOG_FORMAT). The
// format's default, pretty on a terminal and JSON elsewhere, is the logger's to decide
// (telemetry/logger.ts stderrStyle): it is a fact of stderr, not of the configuration.
import { ConfigError } from '../protocol/errors.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../telemetry/log-levels.js';
import { DEFAULT_LOG_LEVEL } from './defaults.js';

export const LOG_FORMAT_ENV = 'MRTR_LOG_FORMAT';

export function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined) return DEFAULT_LOG_LEVEL;
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`--log-level: expected one of ${LOG_LEVELS.join(', ')}, got '${raw}'`);
  }
  return raw as LogLevel;
}

/** The flag, else the environment (empty is unset), else the file (checked by file.ts); absent: by the terminal. */
export function logFormat(flag: string | undefined, env: Record<string, string | undefined>, fromFile: LogFormat | undefined): { logFormat?: LogFormat } {
  const fromEnv = env[LOG_FORMAT_ENV] || undefined;
  const [raw, source] = flag !== undefined ? [flag, '--log-format'] : fromEnv !== undefined ? [fromEnv, LOG_FORMAT_ENV] : [fromFile, 'logFormat'];
  if (raw === undefined) return {};
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw new ConfigError(`${source}: expected json or pretty, got '${raw}'`);
  return { logFormat: raw as LogFormat };
}
