// Processes for the benchmarks: reuses the test helpers (every child is SIGKILLed when this process
// exits) and adds a scope that stops everything it started, also when a case throws.
import { readFileSync } from 'node:fs';
import { startProcess, PROXY_BIN, FIXTURE, TEST_STATE_KEY, ROOT, type Running } from '../../test/support/processes.js';

export { ROOT, FIXTURE, PROXY_BIN, TEST_STATE_KEY, type Running };
export const BENCH_DIST = `${ROOT}dist/bench/`;
export const FORWARDER = `${BENCH_DIST}forwarder.js`;
export const LITE_SERVER = `${BENCH_DIST}legacy-lite.js`;
export const PROXY_PROBE = `${BENCH_DIST}proxy-probe.js`;

const LISTENING = /listening on (http:\/\/[^"\s]+)/;

export class Scope {
  private readonly running: Running[] = [];
  private readonly cleanups: Array<() => Promise<unknown> | unknown> = [];

  async start(command: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<Running> {
    const p = await startProcess(command, args, ready, { env, timeoutMs });
    this.running.push(p);
    return p;
  }

  /** Runs `fn` when the scope closes (before the processes are stopped). */
  defer(fn: () => Promise<unknown> | unknown): void {
    this.cleanups.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch {
        /* best effort */
      }
    }
    await Promise.all(
      this.running
        .splice(0)
        .reverse()
        .map((p) => p.stop('SIGTERM').catch(() => null)),
    );
  }

  /** The mrtr-proxy binary; `--port 0` is added. Resolves with its URL. */
  async proxy(args: string[], opts: { nodeArgs?: string[]; probe?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<Running & { url: string }> {
    const entry = opts.probe ? PROXY_PROBE : PROXY_BIN;
    const p = await this.start(process.execPath, [...(opts.nodeArgs ?? []), entry, '--port', '0', ...args], LISTENING, {
      MRTR_STATE_KEY: TEST_STATE_KEY,
      ...opts.env,
    });
    return { ...p, url: p.ready };
  }

  async fixtureHttp(): Promise<Running & { url: string }> {
    const p = await this.start(process.execPath, [FIXTURE, '--http', '0'], /fixture listening on (http:\/\/\S+)/);
    return { ...p, url: p.ready };
  }

  async lite(args: string[] = []): Promise<Running & { url: string }> {
    const p = await this.start(process.execPath, [LITE_SERVER, ...args], /lite listening on (http:\/\/\S+)/);
    return { ...p, url: p.ready };
  }

  async forwarder(args: string[]): Promise<Running & { url: string }> {
    const p = await this.start(process.execPath, [FORWARDER, ...args], /forwarder listening on (http:\/\/\S+)/);
    return { ...p, url: p.ready };
  }
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : NaN;
}

/** A process's descendants (Linux /proc), the watchdog included. */
export function descendants(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

/** Whether `pid` is the proxy's watchdog (not a legacy child). */
export function isWatchdog(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('watchdog');
  } catch {
    return false;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `run` while sampling the process tree of `pid` every `everyMs`: the most legacy children
 * seen (the watchdog not counted) and the most RSS of `pid` and all its descendants, in bytes.
 */
export async function peakOfTree<T>(pid: number, run: () => Promise<T>, everyMs = 50): Promise<{ value: T; children: number; rss: number }> {
  let children = 0;
  let rss = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const kids = descendants(pid);
      children = Math.max(children, kids.filter((p) => !isWatchdog(p)).length);
      rss = Math.max(
        rss,
        [pid, ...kids].reduce((sum, p) => sum + (rssOf(p) || 0), 0),
      );
      await sleep(everyMs);
    }
  })();
  let value: T;
  try {
    value = await run();
  } finally {
    sampling = false;
    await sampler;
  }
  return { value, children, rss };
}
