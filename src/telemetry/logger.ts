// Structured logging. Every line goes to stderr as JSON: stdout may belong to a stdio transport.
// Secrets never reach this module: callers log handles, counts and reasons, never keys, states or answers.
import winston from 'winston';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

export type Logger = winston.Logger;

export function createLogger(level: LogLevel): Logger {
  return winston.createLogger({
    level,
    format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console({ stderrLevels: [...LOG_LEVELS] })],
  });
}
