// The combinations the contract runs against: the legacy fixture over each upstream transport, and
// the proxy in front of it over each front (HTTP, or --stdio driven through StdioClientTransport).
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { newClient } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { FIXTURE, PROXY_BIN, TEST_STATE_KEY, startHttpFixture, startProcess, startProxy } from '../support/processes.js';
import { tap, type Wire } from './wire.js';

export type UpstreamKind = 'stdio' | 'streamable-http' | 'http+sse' | 'websocket';
export type FrontKind = 'http' | 'stdio';

/** A legacy fixture ready for the proxy: the proxy arguments that reach it, and its own stderr. */
interface Upstream {
  args: string[];
  log(): string;
  stop(): Promise<void>;
}

/** One combination, started: what a contract test may use. */
export interface Setup {
  /** A connected official client with every capability and the canned answers of support/client.ts. */
  client: Client;
  /** Everything that crossed that client's transport. */
  wire: Wire;
  /** The proxy's URL when the front is HTTP, which serves any number of clients (a stdio proxy serves one). */
  url?: string;
  /** Everything the proxy and the legacy server wrote to stderr so far. */
  log(): string;
  teardown(): Promise<void>;
}

/** The legacy fixture on a network transport, reached through a one-upstream configuration file. */
async function networkFixture(flag: '--sse' | '--ws', key: 'sse' | 'websocket'): Promise<Upstream> {
  const fixture = await startProcess(process.execPath, [FIXTURE, flag, '0'], /fixture listening on (\S+)/);
  const config = writeConfig(`default: main\nupstreams:\n  main:\n    ${key}: { url: "${fixture.ready}" }\n`);
  return { args: ['--config', config], log: fixture.stderr, stop: async () => void (await fixture.stop()) };
}

async function startUpstream(kind: UpstreamKind): Promise<Upstream> {
  switch (kind) {
    case 'stdio':
      // The proxy starts the children itself and relays their stderr into its own.
      return { args: ['--', process.execPath, FIXTURE], log: () => '', stop: async () => {} };
    case 'streamable-http': {
      const fixture = await startHttpFixture();
      return { args: ['--upstream', fixture.url], log: fixture.stderr, stop: async () => void (await fixture.stop()) };
    }
    case 'http+sse':
      return networkFixture('--sse', 'sse');
    case 'websocket':
      return networkFixture('--ws', 'websocket');
  }
}

async function httpFront(upstream: Upstream): Promise<Setup> {
  const proxy = await startProxy(upstream.args);
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(proxy.url));
  try {
    await client.connect(transport);
  } catch (err) {
    await proxy.stop();
    throw err;
  }
  return {
    client,
    wire: tap(transport),
    url: proxy.url,
    log: () => proxy.stderr() + upstream.log(),
    async teardown() {
      await client.close();
      await proxy.stop();
    },
  };
}

const env = { ...(process.env as Record<string, string>), MRTR_STATE_KEY: TEST_STATE_KEY };

async function stdioFront(upstream: Upstream): Promise<Setup> {
  const args = [PROXY_BIN, '--stdio', ...upstream.args];
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient();
  // Pinned to 2026-07-28, the client probes with server/discover before it settles on the pipe.
  try {
    await client.connect(transport, { timeout: 15_000 });
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  return {
    client,
    wire: tap(transport),
    log: () => stderr + upstream.log(),
    teardown: () => client.close(),
  };
}

/** Starts the upstream and the front in front of it; teardown stops both. */
export async function start(upstreamKind: UpstreamKind, front: FrontKind): Promise<Setup> {
  const upstream = await startUpstream(upstreamKind);
  let setup: Setup;
  try {
    setup = await (front === 'http' ? httpFront(upstream) : stdioFront(upstream));
  } catch (err) {
    await upstream.stop();
    throw err;
  }
  return {
    ...setup,
    async teardown() {
      await setup.teardown();
      await upstream.stop();
    },
  };
}

export const COMBINATIONS: Array<[UpstreamKind, FrontKind]> = (['stdio', 'streamable-http', 'http+sse', 'websocket'] as const).flatMap((u) =>
  (['http', 'stdio'] as const).map((f): [UpstreamKind, FrontKind] => [u, f]),
);
