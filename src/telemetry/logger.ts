// Structured logging. Every line goes to stderr: stdout may belong to a stdio transport. JSON lines
// for a log collector, or short readable ones for a person at a terminal (pretty-line.ts).
// Secrets never reach this module: callers log handles, counts and reasons, never keys, states or answers.
import winston from 'winston';
import { type FlatFields, jsonLine } from './json-line.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log-levels.js';
import { prettyLine } from './pretty-line.js';

export { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel };

export type Logger = winston.Logger;

/** How lines are written: the format, and whether the level is colored (pretty only). */
export interface LogStyle {
  format: LogFormat;
  color: boolean;
}

const JSON_LINES: LogStyle = { format: 'json', color: false };
/** A terminal has the date already; the time to the millisecond orders a start-up or a call. */
const PRETTY_TIME = 'HH:mm:ss.SSS';

/**
 * `secrets` are blanked out of every string field of every line, in either format: a last guard
 * for text the proxy relays but does not write itself (a legacy child's stderr, which could have
 * read the key from the proxy's /proc/PID/environ or command line).
 */
export function createLogger(level: LogLevel, secrets: readonly string[] = [], style: LogStyle = JSON_LINES): Logger {
  const logger = winston.createLogger({
    level,
    format: lineFormat(secrets, style),
    transports: [new winston.transports.Console({ stderrLevels: [...LOG_LEVELS] })],
  });
  skipDisabledLevels(logger);
  if (style.format === 'json') directJson.set(logger, hiddenOf(secrets));
  return logger;
}

/** JSON-lines loggers made by createLogger, with the secrets their lines blank out. */
const directJson = new WeakMap<Logger, readonly string[]>();

const hiddenOf = (secrets: readonly string[]) => secrets.filter((s) => s.length >= 8);

/**
 * Writes `info` lines of `log` for a path that writes one per request (the access log). A JSON-lines
 * logger of createLogger's gets the line its json format would write, straight to stderr, without
 * the cost of winston's stream; any other logger (pretty lines, a child, a test's) logs it as usual.
 * The level and `silent` are read at every line, so a changed level applies at once.
 */
export function infoLineWriter(log: Logger): (message: string, fields: FlatFields) => void {
  const hidden = directJson.get(log);
  if (hidden === undefined) return (message, fields) => void log.info(message, fields);
  return (message, fields) => {
    if (log.silent || !log.isLevelEnabled('info')) return;
    process.stderr.write(`${jsonLine('info', message, fields, new Date().toISOString(), hidden)}\n`);
  };
}

/** The winston format that turns an entry into its line (exported for the tests). */
export function lineFormat(secrets: readonly string[], style: LogStyle): winston.Logform.Format {
  const hidden = hiddenOf(secrets);
  const redact = winston.format((info) => {
    for (const [k, v] of Object.entries(info)) {
      if (typeof v === 'string' && hidden.some((s) => v.includes(s))) info[k] = hidden.reduce((t, s) => t.split(s).join('[redacted]'), v);
    }
    return info;
  });
  if (style.format === 'json') return winston.format.combine(redact(), winston.format.timestamp(), winston.format.json());
  const LEVEL = Symbol.for('level');
  return winston.format.combine(
    redact(),
    winston.format.timestamp({ format: PRETTY_TIME }),
    ...(style.color ? [winston.format.colorize({ level: true })] : []),
    winston.format.printf((info) => prettyLine(info, String((info as { [LEVEL]?: unknown })[LEVEL] ?? info.level))),
  );
}

/**
 * The style for this process's stderr: the operator's format if one was given, else pretty on a
 * terminal and JSON elsewhere (a pipe, a file, a log collector). Color only in pretty lines, on a
 * terminal that has colors as Node judges it (NO_COLOR, NODE_DISABLE_COLORS and TERM=dumb turn it
 * off), or where FORCE_COLOR asks for it, as `npm start` does when it relays the lines to a terminal.
 */
export function stderrStyle(format: LogFormat | undefined, env: Record<string, string | undefined>): LogStyle {
  const terminal = process.stderr.isTTY === true;
  const chosen = format ?? (terminal ? 'pretty' : 'json');
  if (chosen === 'json') return JSON_LINES;
  const color = terminal ? process.stderr.hasColors(env) : ['', '1', '2', '3', 'true'].includes(env['FORCE_COLOR'] ?? 'unset');
  return { format: chosen, color };
}

/**
 * winston drops a line below the level only inside its stream, after it has built the entry and
 * written it through the stream's machinery; the hot path has debug lines that are off in
 * production. Each level's method asks first (docs/performance.md). Child loggers inherit the
 * methods, and a changed `level` applies at once.
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
