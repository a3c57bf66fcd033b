// argv -> config -> running proxy. The only module that calls process.exit: it maps signals to
// drain, reload and stop, and failures to exit codes (2 bad command line or file, 1 cannot start).
// Everything the proxy runs (audit, dashboard, metrics, authentication) is started by startProxy,
// the library's core; the CLI adds the trace SDK, the file watch and the signals.
//
// Only what reading the command line needs is imported up front: the HTTP front's port is bound
// (front/listen-socket.ts), then the first child of each stdio legacy upstream is started
// (app/prestart.ts) before the rest of the proxy loads, so the two start-ups overlap. Without
// --config that is not even zod (config/resolve-argv.ts): file.ts and its schemas load only for a
// configuration file.
import { prestartLegacyChildren, type UpstreamResources } from '../app/prestart.js';
import { ConfigFileError, type LoadConfigFile } from '../config/file-config.js';
import { type CliAction, namesConfigFile, resolveArgv } from '../config/resolve-argv.js';
import type { ProxyConfig } from '../config/types.js';
import { watchConfigFile } from '../config/watch.js';
import { ConfigError } from '../protocol/errors.js';
import { bindListenSocket, type ListenSocket, listenFailure } from '../front/listen-socket.js';
import { VERSION } from '../version.js';
import { HELP } from './help.js';

/** Legacy children get stdin EOF, then SIGTERM after 2 s, then SIGKILL after 4 s (v1 SDK). */
const SHUTDOWN_DEADLINE_MS = 10_000;

export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  if (argv[0] === 'report') process.exit(await (await import('./report.js')).runReport(argv.slice(1), env));
  const load: LoadConfigFile | undefined = namesConfigFile(argv) ? (await import('../config/file.js')).loadConfigFile : undefined;
  const resolveCli = () => resolveArgv(argv, env, load);
  let parsed: CliAction;
  try {
    parsed = resolveCli();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // A file's problems are all listed; a usage hint would only hide them.
    const usage = err instanceof ConfigFileError ? '' : "Run 'mrtr-proxy --help' for usage.\n";
    process.stderr.write(`${err.message.replace(/^/gm, 'mrtr-proxy: ')}\n${usage}`);
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
  const { config } = parsed;
  // The port before the children: one that is taken fails the start before any legacy child runs.
  const socket = config.stdio ? undefined : await bindListenSocket(config.host, config.port).catch((err: NodeJS.ErrnoException) => err);
  if (socket instanceof Error) {
    const { proxyLogger } = await import('../app/proxy-logger.js');
    proxyLogger(config, env).error(listenFailure(config.host, config.port, socket));
    process.exit(1);
  }
  const resources = prestartLegacyChildren(config);
  await run(config, resolveCli, resources, socket, env);
}

async function run(
  config: ProxyConfig,
  reread: () => CliAction,
  resources: UpstreamResources,
  listenSocket: ListenSocket | undefined,
  env: Record<string, string | undefined>,
): Promise<void> {
  const [{ proxyLogger }, { StartError, startProxy }] = await Promise.all([import('../app/proxy-logger.js'), import('../app/running-proxy.js')]);
  const log = proxyLogger(config, env);
  const starting = startProxy(config, log, { traceSdk: true, resources, ...(listenSocket ? { listenSocket } : {}) });
  // Reloads run one at a time, after the start.
  let reloading: Promise<unknown> = starting.catch(() => undefined);
  function reload(why: string): void {
    reloading = reloading
      .then(() => reloadOnce(why))
      .catch((err: Error) => log.error('reload failed; the running configuration stays', { reason: why, error: err.message }));
  }
  // Watched from before the start, so that a save during the start-up is not missed.
  const watcher = config.configFile === undefined ? undefined : watchConfigFile(config.configFile, () => reload('file changed'), log);
  let proxy: Awaited<typeof starting>;
  try {
    proxy = await starting;
    // The children no upstream took (one that did not start after all) end now.
    resources.prestarted.end();
  } catch (err) {
    resources.close();
    if (!(err instanceof StartError)) throw err;
    log.error(err.message);
    process.exit(1);
  }
  void proxy.ended.then(() => stop('stdin closed', false));

  async function reloadOnce(why: string): Promise<void> {
    // SIGHUP also re-reads the TLS certificate (renewed in place), with or without a --config file.
    if (why === 'SIGHUP') proxy.reloadCertificate();
    if (config.configFile === undefined) {
      if (!config.http.tls) log.warn(`${why} ignored: no --config file to reload`);
      return;
    }
    let next: ProxyConfig;
    try {
      const action = reread();
      if (action.action !== 'run') return;
      next = action.config;
    } catch (err) {
      log.error('configuration rejected; the running configuration stays', { reason: why, error: (err as Error).message });
      return;
    }
    await proxy.reload(next);
  }
  process.on('SIGHUP', () => reload('SIGHUP'));

  let stopping = false;
  async function stop(signal: string, drain: boolean): Promise<void> {
    // A second signal (a terminal's Ctrl-C often reaches a wrapper and the proxy) changes nothing.
    if (stopping) return;
    stopping = true;
    watcher?.close();
    log.info('shutting down', { signal });
    if (drain) await proxy.drain();
    setTimeout(() => {
      log.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await proxy.close();
    process.exit(0);
  }
  process.on('SIGINT', () => void stop('SIGINT', false));
  process.on('SIGTERM', () => void stop('SIGTERM', true));
}
