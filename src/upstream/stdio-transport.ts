// A stdio upstream: one child per legacy session, or the one child of a modern server. The child
// gets the SDK's minimal environment plus what the configuration adds (config/child-env.ts), never
// the proxy's own, and its stderr is relayed into our structured log.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Logger } from '../telemetry/logger.js';
import { childEnvironment } from './child-environment.js';

export interface StdioTarget {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: Record<string, string>;
}

export function createStdioTransport(target: StdioTarget, log: Logger): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: childEnvironment(target),
    stderr: 'pipe',
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  });
  const stderr = transport.stderr;
  if (stderr) {
    createInterface({ input: stderr as Readable }).on('line', (line) => log.info('upstream server stderr', { line }));
  }
  return transport;
}
