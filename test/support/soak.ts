// A soak: the proxy in front of the legacy fixture over a Streamable HTTP upstream (`remote`, the
// default route) and a stdio one (`local`), under a steady mix of what real traffic holds: plain
// calls, interactive calls answered at once, interactive calls nobody answers (users who close the
// tab), bad input (malformed JSON, a tampered requestState, a malformed answer, which keeps the
// round open), a legacy client through the relay, and tasks (answered or cancelled).
// Every answer is checked; what the proxy holds is sampled while it runs and once every
// abandoned interaction has expired. `npm run bench -- soak` runs it for minutes and
// test/e2e/soak.test.ts for under a minute.
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { writeConfig } from './config.js';
import { connectionsTo, descriptorKinds } from './descriptors.js';
import { scrape } from './metrics.js';
import { childPids, FIXTURE, startHttpFixture, startProxy, type ProxyProcess, type Running } from './processes.js';
import { inputRequired, mcpHeaders, post, rpc, type RpcReply } from './rpc.js';
import { sleep } from './wait.js';

export interface SoakOptions {
  /** How long the load runs. */
  seconds: number;
  /** How often what the proxy holds is sampled while it runs. */
  sampleEverySeconds: number;
  /** --interaction-ttl, and the hosted tasks' ttl: abandoned interactions end after it. */
  ttlSeconds: number;
  /** Abandoned interactive calls started per second, per upstream. */
  abandonPerSecond: number;
  log?(line: string): void;
}

/** What the proxy holds at one moment. */
export interface SoakSample {
  /** Seconds since the load started. */
  at: number;
  rssMiB: number;
  heapMiB: number;
  descriptors: number;
  /** Of those, the /proc files kept while the stdio children are read (none at rest). */
  procFiles: number;
  /** TCP connections to the Streamable HTTP legacy server. */
  connections: number;
  /** Pooled legacy sessions, both upstreams. */
  sessions: number;
  /** Legacy child processes (the stdio upstream's). */
  children: number;
  /** Interactive calls waiting for their client (pending questions). */
  pending: number;
  /** Of those, the HTTP upstream's: each holds its call's response stream, a connection. */
  pendingHttp: number;
}

export interface SoakResult {
  samples: SoakSample[];
  /** Once the load stopped and every abandoned interaction expired. */
  settled: SoakSample;
  /** Requests sent, by kind. */
  sent: Record<string, number>;
  /** Answers that were not what the kind of request must get (the first few). */
  unexpected: string[];
}

const ELICIT = { elicitation: { form: {} } };
const TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CLIENTS = { passThrough: 4, interactive: 4 };

export async function soak(opts: SoakOptions): Promise<SoakResult> {
  const fixture = await startHttpFixture();
  let proxy: ProxyProcess | undefined;
  try {
    const config = writeConfig(
      [
        'default: remote',
        'upstreams:',
        `  remote: { http: { url: ${JSON.stringify(fixture.url)} }, tasks: { tools: [ask-name], ttl: ${opts.ttlSeconds} } }`,
        `  local: { stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }, tasks: { tools: [ask-name], ttl: ${opts.ttlSeconds} } }`,
        '',
      ].join('\n'),
    );
    proxy = await startProxy(['--interaction-ttl', String(opts.ttlSeconds), '--config', config]);
    return await drive(proxy, fixture, opts);
  } finally {
    await proxy?.stop();
    await fixture.stop();
  }
}

async function drive(proxy: ProxyProcess, fixture: Running & { url: string }, opts: SoakOptions): Promise<SoakResult> {
  const urls = [proxy.url, proxy.url.replace(/\/mcp$/, '/servers/local/mcp')];
  const metricsUrl = proxy.url.replace(/\/mcp$/, '/metrics');
  const port = Number(new URL(fixture.url).port);
  const pid = proxy.child.pid!;
  const sent: Record<string, number> = {};
  const unexpected: string[] = [];
  const started = Date.now();
  const until = started + opts.seconds * 1000;
  const running = () => Date.now() < until;
  const count = (kind: string) => {
    sent[kind] = (sent[kind] ?? 0) + 1;
  };
  const wrong = (kind: string, what: unknown) => {
    if (unexpected.length < 20) unexpected.push(`${kind}: ${typeof what === 'string' ? what : JSON.stringify(what).slice(0, 300)}`);
  };
  /** Runs `step` in a loop until the load ends; a thrown error is unexpected. */
  const loop = async (kind: string, step: (url: string) => Promise<void>, pauseMs = 0) => {
    for (let i = 0; running(); i++) {
      const url = urls[i % urls.length]!;
      count(kind);
      try {
        await step(url);
      } catch (err) {
        wrong(kind, (err as Error).message);
      }
      if (pauseMs) await sleep(pauseMs);
    }
  };

  const sample = async (): Promise<SoakSample> => {
    const m = await scrape(metricsUrl);
    const { open, procFiles } = await descriptorKinds(pid);
    const sum = (name: string, labels: Record<string, string> = {}) =>
      m.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
    return {
      at: Math.round((Date.now() - started) / 1000),
      rssMiB: Math.round(sum('process_resident_memory_bytes') / 2 ** 20),
      heapMiB: Math.round(sum('nodejs_heap_size_used_bytes') / 2 ** 20),
      descriptors: open,
      procFiles,
      connections: await connectionsTo(pid, port),
      sessions: sum('mrtr_legacy_sessions'),
      children: (await childPids(pid)).length,
      pending: sum('mrtr_interactions_waiting', { mode: 'suspended' }),
      pendingHttp: sum('mrtr_interactions_waiting', { mode: 'suspended', upstream: 'remote' }),
    };
  };

  const passThrough = async (url: string) => {
    const r = await rpc(url, 'tools/call', { name: 'echo', arguments: { text: 'soak' } });
    if (!JSON.stringify(r.body.result ?? r.body).includes('echo: soak')) wrong('pass-through', r.body);
  };
  const answered = async (url: string) => {
    const { requestState } = inputRequired(await rpc(url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
    const done = await rpc(
      url,
      'tools/call',
      { name: 'ask-name', arguments: {}, requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Soak' } } } },
      { caps: ELICIT },
    );
    if (!JSON.stringify(done.body).includes('Hello, Soak!')) wrong('interactive', done.body);
  };
  const abandoned = async (url: string) => {
    inputRequired(await rpc(url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
  };
  let badTurn = 0;
  const badInput = async (url: string) => {
    const turn = badTurn++ % 3;
    if (turn === 0) {
      const r = await post(url, '{"jsonrpc":"2.0","id":1,"method":"tools/call",', mcpHeaders('tools/call', 'echo'));
      if (r.body.error?.code !== -32700) wrong('malformed JSON', r.body);
      return;
    }
    const { requestState } = inputRequired(await rpc(url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
    const tampered = turn === 1;
    const state = tampered ? `${requestState.slice(0, -2)}${requestState.endsWith('AA') ? 'BB' : 'AA'}` : requestState;
    // Malformed: an action that is none of accept, decline, cancel (content that merely misses the
    // schema is the legacy server's to judge).
    const answer = tampered ? { action: 'accept', content: { name: 'x' } } : { action: 'maybe' };
    const r: RpcReply = await rpc(
      url,
      'tools/call',
      { name: 'ask-name', arguments: {}, requestState: state, inputResponses: { 'elicitation-1': answer } },
      { caps: ELICIT },
    );
    if (r.body.error?.code !== -32602) wrong(tampered ? 'tampered requestState' : 'malformed answer', r.body);
  };
  let taskTurn = 0;
  const task = async (url: string) => {
    const created = await rpc(url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: TASKS });
    const taskId = created.body.result?.['taskId'];
    if (created.body.result?.['resultType'] !== 'task' || typeof taskId !== 'string') return wrong('task', created.body);
    const headers = { 'mcp-name': taskId };
    if (taskTurn++ % 2 === 0) {
      const r = await rpc(url, 'tasks/cancel', { taskId }, { caps: TASKS, headers });
      if (r.body.error) wrong('task cancel', r.body);
      return;
    }
    // Answered once it asks; a task it has not reached yet is polled.
    for (let polls = 0; polls < 50; polls++) {
      const got = await rpc(url, 'tasks/get', { taskId }, { caps: TASKS, headers });
      const status = got.body.result?.['status'];
      if (status === 'input_required') {
        const r = await rpc(
          url,
          'tasks/update',
          { taskId, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'T' } } } },
          { caps: TASKS, headers },
        );
        if (r.body.error) wrong('task update', r.body);
        return;
      }
      if (status !== 'working') return wrong('task get', got.body);
      await sleep(20);
    }
    wrong('task', 'never asked');
  };
  const legacyClient = async () => {
    const client = new LegacyClient({ name: 'soak-legacy', version: '1' });
    await client.connect(new LegacyHttpTransport(new URL(proxy.url)));
    try {
      await loop(
        'legacy client',
        async () => {
          const r = await client.callTool({ name: 'echo', arguments: { text: 'relay' } });
          if (!JSON.stringify(r).includes('echo: relay')) wrong('legacy client', r);
        },
        20,
      );
    } finally {
      await client.close();
    }
  };

  const samples: SoakSample[] = [];
  const sampler = (async () => {
    while (running()) {
      await sleep(Math.min(opts.sampleEverySeconds * 1000, Math.max(0, until - Date.now())));
      const s = await sample();
      samples.push(s);
      opts.log?.(`soak ${s.at}s: ${JSON.stringify(s)}`);
    }
  })();
  await Promise.all([
    ...Array.from({ length: CLIENTS.passThrough }, () => loop('pass-through', passThrough)),
    ...Array.from({ length: CLIENTS.interactive }, () => loop('interactive', answered)),
    loop('abandoned', abandoned, 1000 / (opts.abandonPerSecond * urls.length)),
    loop('bad input', badInput, 50),
    loop('task', task, 500),
    legacyClient().catch((err: Error) => wrong('legacy client', err.message)),
    sampler,
  ]);
  // Every abandoned interaction and task is past its ttl after it, and ended once the sweep (every
  // second or so) and the idle /proc files' second have passed: sampled once nothing is pending and
  // no /proc file is kept, or after three seconds more whatever it holds.
  const settleBy = Date.now() + (opts.ttlSeconds + 3) * 1000;
  await sleep(opts.ttlSeconds * 1000);
  let settled = await sample();
  while ((settled.pending > 0 || settled.procFiles > 0) && Date.now() < settleBy) {
    await sleep(250);
    settled = await sample();
  }
  opts.log?.(`soak settled: ${JSON.stringify(settled)}`);
  return { samples, settled, sent, unexpected };
}

/**
 * Counts that only a leak moves. A call waiting for its client on the HTTP upstream holds its
 * response stream (a connection and a descriptor) by design, and how many wait depends on how fast
 * the machine turns the mix over: descriptors and connections are judged beyond what waiting calls
 * hold. So do the /proc files the proxy keeps while it reads a stdio child (up to a few dozen per
 * child, for a second after the last read): how many are open depends on how many children rounds
 * read in that second; they are judged once settled, when none may be left. In-flight work still
 * moves the counts by about the clients' number: the slack.
 */
const STEADY: Record<string, (s: SoakSample) => number> = {
  'descriptors beyond waiting calls and kept /proc files': (s) => s.descriptors - s.pendingHttp - s.procFiles,
  'HTTP connections beyond waiting calls': (s) => s.connections - s.pendingHttp,
  children: (s) => s.children,
  sessions: (s) => s.sessions,
};

/**
 * What grew, for each steady count: the most seen in the last `window` seconds of the load against
 * the most seen in the first `window` seconds, and the settled value against that, each with
 * `slack`. Empty: flat.
 */
export function growth(result: SoakResult, windowSeconds: number, slack: number): string[] {
  const end = result.samples.at(-1)?.at ?? 0;
  const first = result.samples.filter((s) => s.at <= windowSeconds);
  const last = result.samples.filter((s) => s.at > end - windowSeconds && s.at > windowSeconds);
  const out: string[] = [];
  for (const [name, of] of Object.entries(STEADY)) {
    const most = Math.max(...(first.length > 0 ? first : result.samples.slice(0, 1)).map(of));
    const late = Math.max(...last.map(of));
    if (last.length > 0 && late > most + slack) out.push(`${name}: at most ${most} in the first ${windowSeconds} s, ${late} in the last`);
    if (of(result.settled) > most + slack) out.push(`${name}: at most ${most} in the first ${windowSeconds} s, ${of(result.settled)} once settled`);
  }
  if (result.settled.pending !== 0) out.push(`pending questions once settled: ${result.settled.pending}`);
  if (result.settled.procFiles !== 0) out.push(`kept /proc files once settled: ${result.settled.procFiles}`);
  return out;
}
