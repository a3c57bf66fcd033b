// argv -> config -> running proxy. The only module that calls process.exit.
import { randomUUID } from 'node:crypto';
import { Bridge } from '../bridge/bridge.js';
import type { ProxyConfig } from '../config/types.js';
import { resolveCli } from '../config/resolve.js';
import { ConfigError } from '../errors.js';
import { startHttpFront } from '../front/http.js';
import { startStdioFront } from '../front/stdio.js';
import { createSealer } from '../state/seal.js';
import { createLogger } from '../telemetry/logger.js';
import { Upstream } from '../upstream/upstream.js';
import { HELP, VERSION } from './help.js';

/** Legacy children get stdin EOF, then SIGTERM after 2 s, then SIGKILL after 4 s (v1 SDK). */
const SHUTDOWN_DEADLINE_MS = 10_000;

export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  let parsed;
  try {
    parsed = resolveCli(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`mrtr-proxy: ${err.message}\nRun 'mrtr-proxy --help' for usage.\n`);
    process.exit(2);
  }
  if (parsed.action === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (parsed.action === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  await run(parsed.config);
}

async function run(config: ProxyConfig): Promise<void> {
  const log = createLogger(config.logLevel);
  const instance = randomUUID();
  if (config.stateKey.generated) {
    log.warn('no --state-key or MRTR_STATE_KEY: generated a key for this process; retries must come back to this process');
  }
  const upstream = new Upstream(config, log);
  try {
    const info = await upstream.describe();
    log.info('legacy server reached', { server: info.serverInfo.name, version: info.serverInfo.version, protocolVersion: info.protocolVersion });
  } catch (err) {
    log.error('cannot reach the legacy server', { error: (err as Error).message });
    await upstream.close();
    process.exit(1);
  }
  const bridge = new Bridge({
    pool: upstream.pool,
    sealer: createSealer(config.stateKey.bytes),
    instance,
    interactionTtlMs: config.interactionTtlMs,
    gatherWindowMs: config.gatherWindowMs,
    callTimeoutMs: config.callTimeoutMs,
    log,
  });
  const deps = { bridge, upstream, log };
  let front: { close(): Promise<void> };
  if (config.stdio) {
    const stdio = await startStdioFront(deps, config.legacyClients);
    front = stdio;
    log.info('serving 2026-07-28 on stdio', { instance });
    // The client closing stdin ends the proxy (2026-07-28 stdio shutdown).
    void stdio.closed.then(() => stop('stdin closed'));
  } else {
    try {
      const http = await startHttpFront({ host: config.host, port: config.port, legacyClients: config.legacyClients, maxLegacySessions: config.maxSessions }, deps);
      front = http;
      log.info(`listening on ${http.url}`, { url: http.url, instance });
    } catch (err) {
      log.error(`cannot listen on ${config.host}:${config.port}`, { error: (err as Error).message });
      await bridge.close();
      await upstream.close();
      process.exit(1);
    }
  }

  let stopping = false;
  async function stop(signal: string): Promise<void> {
    // A second signal (a terminal's Ctrl-C often reaches a wrapper and the proxy) changes nothing.
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    setTimeout(() => {
      log.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await bridge.close();
    await front.close();
    await upstream.close();
    process.exit(0);
  }
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
