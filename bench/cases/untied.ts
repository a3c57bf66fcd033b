// Questions sent untied (the v1 SDK README's `server.elicitInput()` without `relatedRequestId`;
// every request over stdio): what waiting users cost now that a parked call shares its session.
// (a) 16 clients each running interactive flows (ask, answer, again) over stdio in hold mode:
// legacy children and RSS of the proxy and its children, against the pass-through case (16
// clients calling `echo`) in the same run, and against one child per waiting call
// (`--calls-per-session 1`, the layout before runner slots). (b) A cold burst of users of
// `ask-unrelated` (asks at once, untied, on the GET stream) against a legacy Streamable HTTP server
// with default flags: wall time, legacy sessions, answers wrong or lost, and the p99 wait of an
// answer for its session's runner slot (mrtr_runner_slot_wait_seconds).
import { performance } from 'node:perf_hooks';
import { ProxyClient, type Json } from '../lib/http.js';
import { FIXTURE, peakOfTree, Scope } from '../lib/procs.js';
import { fmt, fmtInt, summarize } from '../lib/stats.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

const ELICIT = { elicitation: { form: {} } };

interface StdioRun {
  /** Processes the proxy started (legacy children; the watchdog not counted). */
  children: number;
  /** Peak RSS of the proxy and all its descendants, bytes. */
  rss: number;
  flows: number;
  wrong: number;
}

/** 16 clients for `ms`: interactive flows of `ask-name` (interactive) or `echo` calls (pass-through). */
async function stdioLoad(kind: 'interactive' | 'pass-through', extra: string[], ms: number): Promise<StdioRun> {
  const scope = new Scope();
  try {
    // --max-sessions 32: room for 16 waiting users even where each holds a session (the old layout).
    const proxy = await scope.proxy(['--suspend', 'hold', '--max-sessions', '32', ...extra, '--', process.execPath, FIXTURE]);
    const pid = proxy.child.pid!;
    const client = new ProxyClient(proxy.url, ELICIT);
    let flows = 0;
    let wrong = 0;
    const until = performance.now() + ms;
    const { children, rss } = await peakOfTree(pid, () =>
      Promise.all(
        Array.from({ length: 16 }, async (_, c) => {
          for (let i = 0; performance.now() < until; i++) {
            const args = { greeting: `c${c}-${i}` };
            if (kind === 'pass-through') {
              await client.tool('echo', { text: 'x' });
            } else {
              const round = await client.tool('ask-name', args);
              const key = Object.keys(round['inputRequests'] as Json)[0]!;
              const done = await client.tool('ask-name', args, {
                requestState: round['requestState'],
                inputResponses: { [key]: { action: 'accept', content: { name: `n${c}-${i}` } } },
              });
              if (done['content']?.[0]?.text !== `c${c}-${i}, n${c}-${i}!`) wrong++;
            }
            flows++;
          }
        }),
      ),
    );
    return { children, rss, flows, wrong };
  } finally {
    await scope.close();
  }
}

interface BurstRun {
  users: number;
  seconds: number;
  sessions: number;
  wrong: number;
  /** Upper bound of the histogram bucket holding the 99th percentile, seconds; 0 when no answer waited. */
  slotWaitP99: number;
  slotWaits: number;
}

/** The p99 of a Prometheus histogram (the bucket bound it falls in) and the count. */
function histogramP99(text: string, name: string): { p99: number; count: number } {
  const buckets = [...text.matchAll(new RegExp(`^${name}_bucket\\{[^}]*le="([^"]+)"[^}]*\\} (\\d+)`, 'gm'))].map((m) => [Number(m[1]), Number(m[2])] as const);
  const count = buckets.at(-1)?.[1] ?? 0;
  const at = buckets.find(([, n]) => n >= count * 0.99);
  return { p99: count === 0 ? 0 : (at?.[0] ?? Number.POSITIVE_INFINITY), count };
}

async function coldBurst(users: number): Promise<BurstRun> {
  const scope = new Scope();
  try {
    const upstream = await scope.fixtureHttp();
    const proxy = await scope.proxy(['--upstream', upstream.url, '--metrics-port', '0']);
    const metricsUrl = /metrics on (http:\/\/[^"\s]+)/.exec(proxy.stderr())?.[1];
    if (!metricsUrl) throw new Error('the proxy did not say where its metrics are');
    const client = new ProxyClient(proxy.url, ELICIT);
    const t0 = performance.now();
    // A refusal (an error instead of a question) counts as a wrong answer: that user got none.
    const rounds = await Promise.all(Array.from({ length: users }, () => client.tool('ask-unrelated', {}).catch(() => undefined)));
    const readyz = (await (await fetch(new URL('/readyz', proxy.url))).json()) as Json;
    const sessions = Number(readyz['upstreams']['default']['sessions']['open']);
    const done = await Promise.all(
      rounds.map((round, i) => {
        if (round?.['resultType'] !== 'input_required') return undefined;
        const key = Object.keys(round['inputRequests'] as Json)[0]!;
        const answer = { requestState: round['requestState'], inputResponses: { [key]: { action: 'accept', content: { v: `u${i}` } } } };
        return client.tool('ask-unrelated', {}, answer).catch(() => undefined);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const wrong = done.filter((d, i) => d?.['content']?.[0]?.text !== `unrelated answer: u${i}`).length;
    const wait = histogramP99(await (await fetch(metricsUrl)).text(), 'mrtr_runner_slot_wait_seconds');
    return { users, seconds, sessions, wrong, slotWaitP99: wait.p99, slotWaits: wait.count };
  } finally {
    await scope.close();
  }
}

export async function untied(opts: BenchOptions): Promise<CaseResult> {
  const ms = opts.quick ? 3000 : 8000;
  const repeats = opts.quick ? 1 : 3;
  const runs = { interactive: [] as StdioRun[], passThrough: [] as StdioRun[], perCall: [] as StdioRun[], bursts: [] as BurstRun[] };
  for (let r = 0; r < repeats; r++) {
    opts.log(`untied: 16 clients over stdio (interactive, pass-through, one child per waiting call), repeat ${r + 1}/${repeats}`);
    runs.interactive.push(await stdioLoad('interactive', [], ms));
    runs.passThrough.push(await stdioLoad('pass-through', [], ms));
    runs.perCall.push(await stdioLoad('interactive', ['--calls-per-session', '1'], ms));
    opts.log(`untied: cold burst of 200 untied askers over HTTP, repeat ${r + 1}/${repeats}`);
    runs.bursts.push(await coldBurst(200));
  }
  const mib = (b: number) => b / 2 ** 20;
  const row = (label: string, rs: StdioRun[]) => [
    label,
    fmt(summarize(rs.map((x) => x.children + 1)), 0),
    fmt(summarize(rs.map((x) => mib(x.rss))), 0),
    fmt(summarize(rs.map((x, i) => x.rss / runs.passThrough[i]!.rss)), 2),
    fmtInt(summarize(rs.map((x) => (x.flows / ms) * 1000))),
    String(rs.reduce((n, x) => n + x.wrong, 0)),
  ];
  const b = runs.bursts;
  const tables = [
    {
      title: '16 clients over stdio, hold mode: legacy children and RSS (proxy + children)',
      columns: ['load', 'processes (max)', 'RSS MiB (max)', 'RSS / pass-through', 'flows or calls/s', 'wrong answers'],
      rows: [
        row('interactive flows (ask, answer)', runs.interactive),
        row('pass-through calls (echo)', runs.passThrough),
        row('interactive, one child per waiting call (--calls-per-session 1)', runs.perCall),
      ],
      notes: [
        `Median (min–max) of ${repeats} repeat(s), ${ms / 1000} s each. Processes: the proxy and its legacy children (the control session's included), not the watchdog; RSS: all of them, the watchdog included.`,
      ],
    },
    {
      title: 'Cold burst: 200 users of a tool that asks at once untied, legacy Streamable HTTP, default flags',
      columns: ['users', 'seconds for all', 'legacy sessions', 'wrong or lost answers', 'answers that waited for a slot', 'p99 slot wait (s, bucket bound)'],
      rows: [
        [
          '200',
          fmt(summarize(b.map((x) => x.seconds)), 2),
          fmt(summarize(b.map((x) => x.sessions)), 0),
          String(b.reduce((n, x) => n + x.wrong, 0)),
          fmt(summarize(b.map((x) => x.slotWaits)), 0),
          fmt(summarize(b.map((x) => x.slotWaitP99)), 3),
        ],
      ],
      notes: ['Sessions: pool sessions on /readyz once every user is parked; the control session adds one.'],
    },
  ];
  return { name: 'untied', tables, charts: [], data: runs };
}
