// The legacy Streamable HTTP transport's error type and its reconnection settings.

export class StreamableHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`Streamable HTTP error: ${message}`);
    this.name = 'StreamableHttpError';
  }
}

export interface ReconnectionOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  growFactor: number;
  maxRetries: number;
}

/** A dead upstream should fail the session quickly; the pool replaces it. */
export const DEFAULT_RECONNECTION: ReconnectionOptions = { initialDelayMs: 500, maxDelayMs: 5000, growFactor: 1.5, maxRetries: 2 };
