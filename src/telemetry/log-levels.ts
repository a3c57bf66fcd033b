// The log levels and formats, apart from the logger: reading the command line needs them, and
// loading winston for that would delay starting the legacy children (see cli/main.ts).
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** json: one JSON object per line, for a log collector; pretty: one short line per entry, for a person. */
export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
