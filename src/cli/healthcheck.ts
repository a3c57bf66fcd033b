// The container image's HEALTHCHECK: asks /readyz of a running proxy at the address that the
// proxy's own command line, environment and working directory resolve to (read from /proc), so
// the check follows --port, --host, --tls-cert and a --config file's listen: instead of assuming
// 8080. Run as `node healthcheck.js [PID]` (PID 1 by default: the container's entrypoint); exits 0
// when ready, 1 otherwise, as Docker expects.
import { readFileSync, readlinkSync } from 'node:fs';
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

check(process.argv[2] ?? '1').then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`mrtr-proxy healthcheck: ${err.message}\n`);
    process.exit(1);
  },
);
