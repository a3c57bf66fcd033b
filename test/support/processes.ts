// Real processes for end-to-end tests: the proxy binary and legacy fixtures. Every child is
// tracked and killed when the test process ends, so a failing test never leaks one.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { existsSync } from 'node:fs';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const PROXY_BIN = `${ROOT}bin/mrtr-proxy.js`;
export const FIXTURE = `${ROOT}dist/test/fixtures/legacy-server.js`;
export const EVERYTHING = `${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;
export const FILESYSTEM = `${ROOT}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`;
/** The fastmcp for TypeScript fixture, run beside its fetched packages (scripts/fetch-test-packages.mjs). */
export const FASTMCP_TS_SERVER = `${ROOT}.cache/fastmcp-ts/fastmcp-server.mjs`;
/** Why the fastmcp for TypeScript tests cannot run, or false (for skipOrFail). */
export const noFastmcpTs = existsSync(FASTMCP_TS_SERVER) ? false : 'fastmcp for TypeScript is not in .cache/fastmcp-ts (node scripts/fetch-test-packages.mjs)';
/** A fixed, valid state key so tests can run two instances that share it. */
export const TEST_STATE_KEY = Buffer.alloc(32, 7).toString('base64url');

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export interface Running {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The first capture group of `ready` once it appeared on stderr. */
  ready: string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string; detached?: boolean } = {},
): Promise<Running> {
  const child = spawn(command, args, {
    env: { ...process.env, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    // A process group of its own, which a test may signal whole.
    ...(opts.detached ? { detached: true } : {}),
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let err = '';
  child.stdout!.resume();
  const match = await new Promise<string>((resolve, reject) => {
    // A process that never got ready is killed: its pipes would keep the test process alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready after ${opts.timeoutMs ?? 15000} ms: ${command} ${args.join(' ')}\n${err}`));
    }, opts.timeoutMs ?? 15000);
    let seen = false;
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      // Once ready, stop scanning: a regex over the whole (growing) log on every chunk is quadratic.
      if (seen) return;
      const m = ready.exec(err);
      if (m) {
        seen = true;
        clearTimeout(timer);
        resolve(m[1] ?? m[0]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready: ${command} ${args.join(' ')}\n${err}`));
    });
  });
  return {
    child,
    ready: match,
    stderr: () => err,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const [code] = (await exited) as [number | null];
      clearTimeout(timer);
      return code;
    },
  };
}

export interface ProxyProcess extends Running {
  /** The listener's /mcp, whether or not it serves a default upstream. */
  url: string;
}

export async function startProxy(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  opts: { cwd?: string; bin?: string; node?: string; nodeArgs?: string[]; detached?: boolean } = {},
): Promise<ProxyProcess> {
  const p = await startProcess(
    opts.node ?? process.execPath,
    [...(opts.nodeArgs ?? []), opts.bin ?? PROXY_BIN, '--port', '0', ...args],
    /listening on (https?:\/\/[^"\s]+)/,
    {
      env: { MRTR_STATE_KEY: TEST_STATE_KEY, ...env },
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(opts.detached ? { detached: true } : {}),
    },
  );
  // The listener's /mcp: without a default upstream the start line names /servers/NAME/mcp first.
  return { ...p, url: `${new URL(p.ready).origin}/mcp` };
}

/**
 * One of several proxy instances sharing the test state key and the Redis at `redisUrl`: on `port`,
 * advertised there (other instances forward to it), logging at debug (tests read which instance did
 * what). `upstream`: `['--config', FILE]`, or `['--', COMMAND, ...]`.
 */
export function startInstance(port: number, redisUrl: string, upstream: string[]): Promise<ProxyProcess> {
  const at = String(port);
  return startProxy(['--port', at, '--advertise-url', `http://127.0.0.1:${at}`, '--state-store', redisUrl, '--log-level', 'debug', ...upstream]);
}

/** Which of `proxies` logged what: `marks()` takes their stderr lengths, `where(line, marks)` lists the instances whose stderr since matched `line`. */
export function instanceLogs(proxies: readonly Running[]): { marks(): number[]; where(line: RegExp, marks: number[]): number[] } {
  return {
    marks: () => proxies.map((p) => p.stderr().length),
    where: (line, marks) => proxies.flatMap((p, i) => (line.test(p.stderr().slice(marks[i])) ? [i] : [])),
  };
}

/** The test fixture over Streamable HTTP on a free port (`args`: e.g. `--json-response`); resolves with its URL. */
export async function startHttpFixture(env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<Running & { url: string }> {
  const p = await startProcess(process.execPath, [FIXTURE, '--http', '0', ...args], /fixture listening on (http:\/\/\S+)/, { env });
  return { ...p, url: p.ready };
}

/** Whether a process with this pid still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Direct children of a pid (Linux /proc), to check that legacy children do not leak. The proxy's
 * watchdog (src/upstream/child/watchdog-sh.ts, or watchdog.ts on Windows) is not a legacy child and is left out.
 */
export async function childPids(pid: number): Promise<number[]> {
  const { readFile } = await import('node:fs/promises');
  try {
    const list = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    const pids = list.trim().split(/\s+/).filter(Boolean).map(Number);
    const commands = await Promise.all(pids.map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')));
    // The watchdog (`sh -c SCRIPT mrtr-proxy-watchdog`; dist/src/upstream/child/watchdog.js or dist/bin/watchdog.js on Windows) is not a legacy child.
    return pids.filter((_, i) => !/\/watchdog\.js(\0|$)|\0mrtr-proxy-watchdog(\0|$)/.test(commands[i]!));
  } catch {
    return [];
  }
}
