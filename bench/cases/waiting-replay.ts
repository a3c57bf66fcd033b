// Case 3b: waiting users in replay mode. A replayed call lets its legacy call go as soon as
// the server asks, so a user who is thinking should cost the proxy nothing: no legacy session, no
// child process, memory back at idle. N users are left waiting (their requestStates kept by the
// client, never retried) and the proxy's heap and RSS after a full GC are compared with idle, in the
// same run; the legacy sessions the proxy holds are read from /readyz. The stdio part counts the
// proxy's child processes with 1,000 users waiting on a legacy server it spawns.
import { inParallel } from '../lib/load.js';
import { readdirSync, readFileSync } from 'node:fs';
import { ALL_CAPS, ProxyClient, type Json } from '../lib/http.js';
import { FIXTURE, Scope, rssOf, sleep, type Running } from '../lib/procs.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';
import { probe } from './waiting.js';

/** Live processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) n++;
    } catch {
      /* the process ended while we looked */
    }
  }
  return n;
}

/** Leaves `n` users waiting on `tool` with 32 concurrent clients; returns their states. */
async function leaveWaiting(client: ProxyClient, tool: string, args: Json, n: number): Promise<string[]> {
  const states: string[] = [];
  await inParallel(n, 32, async () => {
    const r = await client.tool(tool, args);
    if (r['resultType'] !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(r)}`);
    states.push(r['requestState'] as string);
  });
  return states;
}

interface Figures {
  heap: number;
  rss: number;
  vmRss: number;
  sessions: { open: number; held: number; onClient: number };
}

interface HttpFigures {
  users: number;
  /** After start and a warm-up. */
  fresh: Figures;
  /** After the same traffic (N calls that asked and were answered), nobody waiting: the baseline. */
  idle: Figures;
  /** N users waiting. */
  waiting: Figures;
}

/** Idle pooled sessions close after this, so the session count shows only what is held. */
const IDLE_SESSION_TTL_S = 2;

async function sessionsOf(proxyUrl: string): Promise<Figures['sessions']> {
  const r = await fetch(new URL('/readyz', proxyUrl));
  const body = (await r.json()) as { upstreams: Record<string, { sessions?: { open?: number; held?: number; onClient?: number } }> };
  const out = { open: 0, held: 0, onClient: 0 };
  for (const u of Object.values(body.upstreams)) {
    out.open += u.sessions?.open ?? 0;
    out.held += u.sessions?.held ?? 0;
    out.onClient += u.sessions?.onClient ?? 0;
  }
  return out;
}

/** Runs `n` calls of `ask` that each ask once and are answered, 32 at a time. */
async function answered(client: ProxyClient, n: number): Promise<void> {
  await inParallel(n, 32, async (i) => {
    const r = await client.tool('ask', { rounds: 1 });
    const key = Object.keys(r['inputRequests'] as Json)[0]!;
    const done = await client.tool(
      'ask',
      { rounds: 1 },
      { requestState: r['requestState'], inputResponses: { [key]: { action: 'accept', content: { name: `u${i}` } } } },
    );
    if (done['resultType'] === 'input_required') throw new Error(`expected a result, got ${JSON.stringify(done)}`);
  });
}

async function overHttp(users: number, opts: BenchOptions): Promise<HttpFigures> {
  const scope = new Scope();
  try {
    const lite = await scope.lite();
    const proxy = await scope.proxy(
      [
        '--upstream',
        lite.url,
        '--suspend',
        'replay',
        '--spare-sessions',
        '0',
        '--gather-window',
        '0',
        '--access-log',
        'off',
        '--idle-session-ttl',
        String(IDLE_SESSION_TTL_S),
      ],
      { probe: true, nodeArgs: ['--expose-gc'] },
    );
    const client = new ProxyClient(proxy.url, ALL_CAPS);
    const at = async (label: string): Promise<Figures> => {
      await sleep(IDLE_SESSION_TTL_S * 1000 + 1500);
      const m = await probe(proxy);
      const f = { heap: m.heapUsed, rss: m.rss, vmRss: rssOf(proxy.child.pid!), sessions: await sessionsOf(proxy.url) };
      opts.log(
        `  replay, ${label}: heap ${(f.heap / 2 ** 20).toFixed(1)} MiB, rss ${(f.rss / 2 ** 20).toFixed(1)} MiB, sessions ${JSON.stringify(f.sessions)}`,
      );
      return f;
    };
    await answered(client, 50);
    const fresh = await at('after start');
    await answered(client, users);
    const idle = await at(`after ${users} answered calls, nobody waiting`);
    const states = await leaveWaiting(client, 'ask', { rounds: 1 }, users);
    const waiting = await at(`${states.length} waiting`);
    return { users: states.length, fresh, idle, waiting };
  } finally {
    await scope.close();
  }
}

async function overStdio(
  users: number,
  opts: BenchOptions,
): Promise<{ users: number; childrenIdle: number; childrenRightAfter: number; childrenWaiting: number; sessions: Figures['sessions'] }> {
  const scope = new Scope();
  try {
    const proxy: Running & { url: string } = await scope.proxy([
      '--suspend',
      'replay',
      '--spare-sessions',
      '0',
      '--gather-window',
      '0',
      '--access-log',
      'off',
      '--',
      process.execPath,
      FIXTURE,
    ]);
    const client = new ProxyClient(proxy.url, ALL_CAPS);
    await client.tool('echo', { text: 'x' });
    await sleep(IDLE_SESSION_TTL_S * 1000 + 1500);
    const childrenIdle = childrenOf(proxy.child.pid!);
    const states = await leaveWaiting(client, 'ask-name', {}, users);
    const childrenRightAfter = childrenOf(proxy.child.pid!);
    await sleep(IDLE_SESSION_TTL_S * 1000 + 1500);
    const childrenWaiting = childrenOf(proxy.child.pid!);
    const sessions = await sessionsOf(proxy.url);
    opts.log(
      `  replay over stdio, ${states.length} waiting: ${childrenWaiting} child process(es) (idle ${childrenIdle}, ${childrenRightAfter} right after filling), sessions ${JSON.stringify(sessions)}`,
    );
    return { users: states.length, childrenIdle, childrenRightAfter, childrenWaiting, sessions };
  } finally {
    await scope.close();
  }
}

export async function waitingReplay(opts: BenchOptions): Promise<CaseResult> {
  const users = opts.quick ? 2000 : 10000;
  opts.log(`waiting users in replay mode: ${users} over HTTP, 1000 over stdio`);
  const http = await overHttp(users, opts);
  const stdio = await overStdio(1000, opts);
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
  const row = (label: string, f: Figures) => [label, mib(f.heap), mib(f.rss), mib(f.vmRss), `${f.sessions.open} / ${f.sessions.held}`];
  const tables = [
    {
      title: `Waiting users in replay mode: proxy after full GC (HTTP upstream, ${http.users.toLocaleString('en-US')} users)`,
      columns: ['', 'heap used MiB', 'RSS MiB (process.memoryUsage)', 'VmRSS MiB', 'legacy sessions open / held'],
      rows: [
        row('after start', http.fresh),
        row(`after ${http.users.toLocaleString('en-US')} answered calls, nobody waiting (baseline)`, http.idle),
        row(`${http.users.toLocaleString('en-US')} users waiting`, http.waiting),
        ['waiting vs baseline', pct(http.waiting.heap, http.idle.heap), pct(http.waiting.rss, http.idle.rss), pct(http.waiting.vmRss, http.idle.vmRss), ''],
      ],
      notes: [
        `Sessions are read from /readyz ${IDLE_SESSION_TTL_S + 1.5} s after each phase (--idle-session-ttl ${IDLE_SESSION_TTL_S}, --spare-sessions 0), so an idle pooled session has closed and what is left is held.`,
        'The baseline has served the same traffic: RSS keeps its high-water mark after GC (the allocator does not hand pages back), so "after start" is not the fair comparison.',
        `Over stdio, ${stdio.users.toLocaleString('en-US')} users waiting: ${stdio.childrenWaiting} child process(es) of the proxy (idle: ${stdio.childrenIdle}, the watchdog is one; ${stdio.childrenRightAfter} right after filling, pooled sessions that then closed as idle), legacy sessions open / held ${stdio.sessions.open} / ${stdio.sessions.held}.`,
        'Target (issue 9): no legacy session and no child process held for a waiting user; RSS within 10 % of idle.',
      ],
    },
  ];
  return { name: 'waiting-replay', tables, charts: [], data: { http, stdio } };
}
