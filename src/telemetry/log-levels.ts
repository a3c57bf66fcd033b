// The log levels, apart from the logger: reading the command line needs them, and loading winston
// for that would delay starting the legacy children (see cli/main.ts).
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];
