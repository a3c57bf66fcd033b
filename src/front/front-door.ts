// Everything the HTTP listener mounts in front of its routes, built from the front-door settings:
// for now, client authentication (auth-gate.ts).
import type { RequestHandler } from 'express';
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { HttpFrontConfig } from '../config/types.js';
import type { RouteTable } from '../routing/route.js';
import type { Logger } from '../telemetry/logger.js';
import { createAuthGate } from './auth-gate.js';

export interface FrontDoor {
  middleware: RequestHandler[];
  /** Told the listening URL once the listener is up. */
  listening(url: string): void;
}

export function createFrontDoor(config: HttpFrontConfig, table: RouteTable, verifier: TokenVerifier, log: Logger): FrontDoor {
  const gate = createAuthGate(table, config.resourceUrl, verifier, log);
  return {
    middleware: [gate.middleware],
    listening: (url) => gate.listening(url),
  };
}
