// The container image's HEALTHCHECK: asks /readyz of a running proxy at the address that the
// proxy's own command line, environment and working directory resolve to (read from /proc), so
// the check follows --port, --host, --tls-cert and a --config file's listen: instead of assuming
// 8080. Run as `node healthcheck.js [PID]`; without a PID it asks PID 1 (the container's
// entrypoint), or the first mrtr-proxy process when PID 1 is an init (`docker run --init`). Exits
// 0 when ready, 1 otherwise, as Docker expects.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename } from 'node:path';
import { loadConfigFile } from '../config/file.js';
import { resolveArgv } from '../config/resolve-argv.js';

const TIMEOUT_MS = 3000;

/** The arguments a process gave the mrtr-proxy command: what follows the script in its cmdline. */
export function proxyArguments(cmdline: readonly string[]): string[] {
  const at = cmdline.findIndex((a) => /^mrtr-proxy(\.js)?$/.test(basename(a)));
  if (at === -1) throw new Error(`not an mrtr-proxy command line: ${cmdline.join(' ')}`);
  return cmdline.slice(at + 1);
}

/** The /readyz URL of a proxy started with `args` in `env` (a wildcard host is asked on loopback). */
export function readyzUrl(args: readonly string[], env: Record<string, string | undefined>): URL {
  const action = resolveArgv(args, env, loadConfigFile);
  if (action.action !== 'run') throw new Error(`the proxy was started with --${action.action}: it serves nothing`);
  const { host, port, http } = action.config;
  if (port === 0) throw new Error('the proxy listens on a port it chose at start (--port 0): give it a port of its own to check');
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return new URL(`${http.tls ? 'https' : 'http'}://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}/readyz`);
}

function nulSeparated(path: string): string[] {
  return readFileSync(path, 'utf8').split('\0').filter(Boolean);
}

function get(url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    // The certificate is the proxy's own, for its public name: this check only asks whether it answers.
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { timeout: TIMEOUT_MS, rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

async function check(pid: string): Promise<number> {
  const proc = `/proc/${pid}`;
  const env = Object.fromEntries(nulSeparated(`${proc}/environ`).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  // A relative --config (or certificate) path is relative to the proxy's directory, not ours.
  process.chdir(readlinkSync(`${proc}/cwd`));
  const url = readyzUrl(proxyArguments(nulSeparated(`${proc}/cmdline`)), env);
  const status = await get(url);
  if (status === 200) return 0;
  process.stderr.write(`mrtr-proxy healthcheck: ${url.href} answered ${status}\n`);
  return 1;
}

/** PID 1 if it is the proxy, else the lowest-numbered mrtr-proxy process. */
function proxyPid(): string {
  const others = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && p !== '1' && p !== String(process.pid));
  const pids = ['1', ...others.sort((a, b) => Number(a) - Number(b))];
  const found = pids.find((pid) => {
    try {
      proxyArguments(nulSeparated(`/proc/${pid}/cmdline`));
      return true;
    } catch {
      return false;
    }
  });
  if (found === undefined) throw new Error('no mrtr-proxy process found in /proc');
  return found;
}

Promise.resolve()
  .then(() => check(process.argv[2] ?? proxyPid()))
  .then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`mrtr-proxy healthcheck: ${err.message}\n`);
      process.exit(1);
    },
  );
