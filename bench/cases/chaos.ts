// The chaos bench: `npm run bench -- chaos [--minutes N] [--seed=N]` (default 5 min; --quick: 1).
// Two instances behind nginx round robin share Redis; four OAuth principals with their own tokens;
// three upstreams in one configuration: the legacy fixture over stdio (held, with hosted tasks), the
// same fixture over Streamable HTTP (replayed), and the 2025-11-25 tasks fixture over stdio (its
// tasks translated). About 14 flows a second, users answering after 0-3 s, and every 15-30 s a
// fault: a legacy stdio child or an instance killed, an instance stopped, the HTTP legacy server or
// Redis restarted (Redis empty), Redis stopped for 10 s. One verdict per guarantee at the end; the
// schedule (flows, answers, faults) comes from the seed, so a run can be repeated.
import { readFileSync } from 'node:fs';
import { textOf } from '../../test/support/client.js';
import { startAuthServer, type AuthServer, type TestClient } from '../../test/support/auth-server.js';
import { writeConfig } from '../../test/support/config.js';
import { openDescriptors } from '../../test/support/descriptors.js';
import { NO_NGINX, startNginx, type NginxProcess } from '../../test/support/nginx.js';
import { freePort } from '../../test/support/ports.js';
import { alive } from '../../test/support/process-tree.js';
import { childPids, FIXTURE, ROOT, startInstance, startProcess, type ProxyProcess, type Running } from '../../test/support/processes.js';
import { NO_REDIS, startRedis, type RedisProcess } from '../../test/support/redis.js';
import { rpc, type RpcReply } from '../../test/support/rpc.js';
import type { BenchOptions, CaseResult } from '../lib/types.js';

const TASKS_FIXTURE = `${ROOT}dist/test/fixtures/tasks-server.js`;
const AUDIENCE = 'http://chaos.bench/mcp';
const CALL_TIMEOUT_S = 30;
/** A request with no answer within this is a hang. */
const HANG_MS = (CALL_TIMEOUT_S + 10) * 1000;
/** A task not final within this (a killed owner's tasks fail within 20 s) is a hung task. */
const TASK_HANG_MS = 90_000;
const FLOWS_PER_S = 14;
const INTERACTION_TTL_S = 30;
const IDLE_SESSION_TTL_S = 20;
/**
 * How long the instances get to come back to their baseline once the load is over: a call whose
 * client went away waits out its interaction ttl, then its session its idle ttl (closed at the next
 * sweep, a quarter of that later), with room for a loaded machine.
 */
const SETTLE_S = INTERACTION_TTL_S + IDLE_SESSION_TTL_S * 1.25 + 15;
const INTERACTIVE = { elicitation: { form: {} } };
const WITH_TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** mulberry32: a small seeded PRNG, so the schedule of a run can be repeated. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type FlowKind = 'held' | 'replayed' | 'hosted-task' | 'translated-task';
const KINDS: FlowKind[] = ['held', 'replayed', 'hosted-task', 'translated-task'];

interface Tally {
  flows: Record<FlowKind, { started: number; completed: number; ended: number }>;
  wrong: string[];
  hangs: string[];
  reasonless: string[];
  /** data.reason → count, for every JSON-RPC error the proxy sent. */
  reasons: Map<string, number>;
  /** Answers that were not the proxy's (nginx 502 while an instance is down, refused connections). */
  transport: Map<string, number>;
  regressions: string[];
  faults: string[];
}

/** `--seed=N` on the command line (one word, so run.ts does not take N for a case name). */
function seedArgument(): number | undefined {
  const given = process.argv.find((a) => a.startsWith('--seed='));
  if (given === undefined) return undefined;
  const n = Number(given.slice(7));
  if (!Number.isInteger(n) || n < 0) throw new Error(`--seed: expected a whole number, got '${given.slice(7)}'`);
  return n;
}

export async function chaos(opts: BenchOptions): Promise<CaseResult> {
  if (NO_NGINX ?? NO_REDIS) throw new Error(`chaos: ${NO_NGINX ?? NO_REDIS}`);
  const minutes = opts.minutes ?? (opts.quick ? 1 : 5);
  const seed = seedArgument() ?? Date.now() % 1_000_000;
  const random = prng(seed);
  const between = (lo: number, hi: number) => lo + random() * (hi - lo);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  opts.log(`chaos for ${minutes} min, seed ${seed}`);

  const principals: TestClient[] = ['ada', 'grace', 'alan', 'edsger'].map((n) => ({ clientId: `chaos-${n}`, clientSecret: `${n}-secret`, scope: 'mcp:tools' }));
  const as: AuthServer = await startAuthServer(principals, { accessTokenTtlS: 4 * 3600 });
  const tokens = await Promise.all(principals.map(async (p) => (await as.token(p, { resource: AUDIENCE })).access_token));
  let redis: RedisProcess = await startRedis();
  const httpPort = await freePort();
  const startHttpLegacy = () => startProcess(process.execPath, [FIXTURE, '--http', String(httpPort)], /fixture listening on (http:\/\/\S+)/);
  let httpLegacy: Running = await startHttpLegacy();
  const config = writeConfig(
    [
      'upstreams:',
      '  held:',
      `    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`,
      '    suspend: hold',
      // The fixtures keep nothing per session; sessions kept to one principal each would start a
      // child per principal, capability set and parked call, which on two cores is a test of the
      // machine, not of the faults.
      '    sessionScope: shared',
      '    tasks: { tools: [ask-name], ttl: 30, pollInterval: 0.2 }',
      '  replayed:',
      `    http: ${httpLegacy.ready}`,
      '    suspend: replay',
      '  translated:',
      `    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(TASKS_FIXTURE)}] }`,
      '    sessionScope: shared',
      '',
    ].join('\n'),
  );
  const ports = [await freePort(), await freePort()];
  const args = [
    '--config',
    config,
    '--auth-issuer',
    as.issuer,
    '--auth-audience',
    AUDIENCE,
    '--call-timeout',
    String(CALL_TIMEOUT_S),
    '--interaction-ttl',
    String(INTERACTION_TTL_S),
    '--idle-session-ttl',
    String(IDLE_SESSION_TTL_S),
    // Room for the load, but the legacy sessions kept to their defaults (16 over stdio): a child
    // per parked call past that is a test of the machine's two cores, not of the faults.
    '--max-interactions-per-principal',
    '512',
    '--max-calls-per-principal',
    '512',
  ];
  const start = (i: number) => startInstance(ports[i]!, redis.url, args);
  const instances: ProxyProcess[] = await Promise.all([0, 1].map(start));
  const nginx: NginxProcess = await startNginx(ports);
  const base = new URL(nginx.url).origin;
  const route = (name: string) => `${base}/servers/${name}/mcp`;

  const tally: Tally = {
    flows: Object.fromEntries(KINDS.map((k) => [k, { started: 0, completed: 0, ended: 0 }])) as Tally['flows'],
    wrong: [],
    hangs: [],
    reasonless: [],
    reasons: new Map(),
    transport: new Map(),
    regressions: [],
    faults: [],
  };
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  /** One request, sent again (up to 5 times, 1 s apart) while the proxy's error says `action: "retry"`, as a client should. */
  const send = async (
    what: string,
    url: string,
    method: string,
    params: Record<string, unknown>,
    principal: number,
    caps: object,
  ): Promise<RpcReply | undefined> => {
    for (let attempt = 1; ; attempt++) {
      const reply = await sendOnce(what, url, method, params, principal, caps);
      if (attempt >= 5 || (reply?.body.error?.data as { action?: unknown } | undefined)?.action !== 'retry') return reply;
      await sleep(1000);
    }
  };
  /** One request with the hang bound; undefined when it ended without a JSON-RPC answer from the proxy (counted). */
  const sendOnce = async (
    what: string,
    url: string,
    method: string,
    params: Record<string, unknown>,
    principal: number,
    caps: object,
  ): Promise<RpcReply | undefined> => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), HANG_MS);
    try {
      const taskId: Record<string, string> = typeof params['taskId'] === 'string' ? { 'mcp-name': params['taskId'] } : {};
      const headers: Record<string, string> = { authorization: `Bearer ${tokens[principal]}`, ...taskId };
      const reply = await rpc(url, method, params, { caps: caps as Record<string, unknown>, headers, signal: abort.signal });
      if (reply.body.error) {
        const data = reply.body.error.data as { reason?: unknown; action?: unknown } | undefined;
        if (typeof data?.reason !== 'string' || typeof data?.action !== 'string')
          tally.reasonless.push(`${what} ${method}: ${JSON.stringify(reply.body.error)}`);
        else bump(tally.reasons, data.reason);
        return reply;
      }
      if (reply.status !== 200 || !reply.body.result) {
        bump(tally.transport, `HTTP ${reply.status}`);
        return undefined;
      }
      return reply;
    } catch (err) {
      if (abort.signal.aborted) tally.hangs.push(`${what} ${method}: no answer in ${HANG_MS / 1000} s`);
      // A body that is not JSON is nginx's own error page (502 while an instance is down).
      else bump(tally.transport, (err as Error).name === 'SyntaxError' ? 'not JSON (nginx error page)' : `${(err as Error).message}`);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };

  /** Interactive: call, input_required, the user answers after 0-3 s, retry, the result names the answer. */
  const interactive = async (kind: 'held' | 'replayed', who: number, name: string, answerAfterMs: number) => {
    const url = route(kind);
    const first = await send(name, url, 'tools/call', { name: 'ask-name', arguments: {} }, who, INTERACTIVE);
    const r = first?.body.result;
    if (!r) return false;
    if (r['resultType'] !== 'input_required') {
      tally.wrong.push(`${name}: first answer was not input_required: ${JSON.stringify(r).slice(0, 200)}`);
      return false;
    }
    await sleep(answerAfterMs);
    const retry = await send(
      name,
      url,
      'tools/call',
      {
        name: 'ask-name',
        arguments: {},
        requestState: r['requestState'],
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name } } },
      },
      who,
      INTERACTIVE,
    );
    const done = retry?.body.result;
    if (!done) return false;
    const text = textOf(done as never);
    if (text !== `Hello, ${name}!`) tally.wrong.push(`${name}: got ${JSON.stringify(text).slice(0, 200)}`);
    return text === `Hello, ${name}!`;
  };

  /** Every status seen of each task, to find one seen final and then anything else. */
  const seen = new Map<string, string>();
  const observe = (name: string, taskId: string, status: string) => {
    const before = seen.get(taskId);
    if (before && FINAL.has(before) && before !== status) tally.regressions.push(`${name} (${taskId}): ${before} then ${status}`);
    if (!before || !FINAL.has(before)) seen.set(taskId, status);
  };

  /** A task: create, poll to input_required, answer after 0-3 s, poll to a final status; a completed one names the answer. */
  const task = async (kind: 'hosted-task' | 'translated-task', who: number, name: string, answerAfterMs: number) => {
    const url = route(kind === 'hosted-task' ? 'held' : 'translated');
    const tool = kind === 'hosted-task' ? { name: 'ask-name', arguments: {} } : { name: 'confirm_delete', arguments: { filename: name } };
    const created = (await send(name, url, 'tools/call', tool, who, WITH_TASKS))?.body.result;
    if (!created) return false;
    const t = (created['task'] ?? created) as { taskId?: string; status?: string };
    if (created['resultType'] !== 'task' || typeof t.taskId !== 'string') {
      tally.wrong.push(`${name}: expected a task, got ${JSON.stringify(created).slice(0, 200)}`);
      return false;
    }
    const taskId = t.taskId;
    const get = async () => {
      const r = (await send(name, url, 'tasks/get', { taskId }, who, WITH_TASKS))?.body.result;
      if (r) observe(name, taskId, String(r['status']));
      return r;
    };
    const deadline = Date.now() + TASK_HANG_MS;
    let answered = false;
    let last: Record<string, unknown> | undefined;
    while (Date.now() < deadline) {
      last = await get();
      if (!last) return false;
      const status = String(last['status']);
      if (FINAL.has(status)) break;
      if (status === 'input_required' && !answered) {
        const keys = Object.keys((last['inputRequests'] as Record<string, unknown>) ?? {});
        await sleep(answerAfterMs);
        // The fixture's form asks for `confirm` only; the extra `name` (its schema allows others) comes back in the result.
        const content = kind === 'hosted-task' ? { name } : { confirm: true, name };
        const update = await send(
          name,
          url,
          'tasks/update',
          { taskId, inputResponses: Object.fromEntries(keys.map((k) => [k, { action: 'accept', content }])) },
          who,
          WITH_TASKS,
        );
        if (!update?.body.result) return false;
        answered = true;
      }
      await sleep(250);
    }
    const status = String(last?.['status']);
    if (!FINAL.has(status)) {
      tally.hangs.push(`${name} (${taskId}): still ${status} after ${TASK_HANG_MS / 1000} s`);
      return false;
    }
    // Read once more (through the other instance, most likely): a final status must stay.
    await get();
    if (status !== 'completed') return false;
    const text = textOf(last!['result'] as never);
    const expected = kind === 'hosted-task' ? `Hello, ${name}!` : `deleted: ${JSON.stringify({ confirm: true, name })}`;
    if (text !== expected) tally.wrong.push(`${name}: got ${JSON.stringify(text).slice(0, 200)}`);
    return text === expected;
  };

  // Leak baselines: after a warm-up, with no load.
  const sample = async (p: ProxyProcess) => {
    const pid = p.child.pid!;
    return { descriptors: await openDescriptors(pid).catch(() => -1), children: (await childPids(pid)).length, rssMiB: rssMiB(pid) };
  };
  for (let i = 0; i < 8; i++) await Promise.all(KINDS.map((k, j) => runFlow(k, j % 4, `warm${i}${j}`, 0)));
  await sleep(2000);
  const baseline = await Promise.all(instances.map(sample));
  opts.log(`baseline: ${JSON.stringify(baseline)}`);

  let flowSeq = 0;
  const running = new Set<Promise<void>>();
  function runFlow(kind: FlowKind, who: number, name: string, answerAfterMs: number): Promise<void> {
    tally.flows[kind].started++;
    const p = (kind === 'held' || kind === 'replayed' ? interactive(kind, who, name, answerAfterMs) : task(kind, who, name, answerAfterMs)).then(
      (ok) => {
        tally.flows[kind][ok ? 'completed' : 'ended']++;
      },
      (err: unknown) => {
        tally.flows[kind].ended++;
        tally.wrong.push(`${name}: the flow threw ${(err as Error).message}`);
      },
    );
    return p;
  }

  const orphansToCheck: number[] = [];
  const faults = async (until: number) => {
    const kinds = ['kill-legacy-child', 'restart-http-legacy', 'stop-instance', 'kill-instance', 'restart-redis-empty', 'stop-redis'] as const;
    for (;;) {
      await sleep(between(15_000, 30_000));
      if (Date.now() >= until) return;
      const fault = pick(kinds);
      const i = Math.floor(random() * instances.length);
      const t0 = Date.now();
      let what: string = fault;
      if (fault === 'kill-legacy-child') {
        const kids = await childPids(instances[i]!.child.pid!);
        const victim = kids.length ? kids[Math.floor(random() * kids.length)]! : undefined;
        if (victim) process.kill(victim, 'SIGKILL');
        what = `kill -9 legacy child ${victim ?? '(none)'} of instance ${i}`;
      } else if (fault === 'restart-http-legacy') {
        await httpLegacy.stop('SIGKILL');
        httpLegacy = await startHttpLegacy();
        what = 'restart the HTTP legacy server';
      } else if (fault === 'stop-instance') {
        const ms = between(5000, 20_000);
        instances[i]!.child.kill('SIGSTOP');
        await sleep(ms);
        instances[i]!.child.kill('SIGCONT');
        what = `SIGSTOP instance ${i} for ${(ms / 1000).toFixed(1)} s`;
      } else if (fault === 'kill-instance') {
        orphansToCheck.push(...(await childPids(instances[i]!.child.pid!)));
        await instances[i]!.stop('SIGKILL');
        instances[i] = await start(i);
        what = `kill -9 instance ${i}, started again`;
      } else if (fault === 'restart-redis-empty') {
        await redis.stop('SIGKILL');
        redis = await startRedis(redis.port);
        what = 'restart Redis empty';
      } else {
        redis.child.kill('SIGSTOP');
        await sleep(10_000);
        redis.child.kill('SIGCONT');
        what = 'SIGSTOP Redis for 10 s';
      }
      tally.faults.push(what);
      opts.log(`fault ${tally.faults.length}: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
  };

  const started = Date.now();
  const until = started + minutes * 60_000;
  const faulting = faults(until);
  let next = started;
  let lastReport = started;
  while (Date.now() < until) {
    // Poisson arrivals at FLOWS_PER_S, from the seed.
    next += (-Math.log(1 - random()) / FLOWS_PER_S) * 1000;
    const kind = pick(KINDS);
    const who = Math.floor(random() * principals.length);
    const answerAfterMs = between(0, 3000);
    const name = `${principals[who]!.clientId.slice(6)}-${++flowSeq}`;
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
    const p = runFlow(kind, who, name, answerAfterMs);
    running.add(p);
    void p.finally(() => running.delete(p));
    if (Date.now() - lastReport >= 30_000) {
      lastReport = Date.now();
      const done = KINDS.reduce((n, k) => n + tally.flows[k].completed, 0);
      opts.log(`${flowSeq} flows started, ${done} completed, ${running.size} running, ${tally.wrong.length} wrong, ${tally.hangs.length} hangs`);
    }
  }
  await faulting;
  await Promise.all([...running]);
  opts.log(`load over; waiting up to ${SETTLE_S} s for the instances to come back to their baseline`);
  const settleStarted = Date.now();
  const leaksIn = (after: Awaited<ReturnType<typeof sample>>[]) => {
    const leaks: string[] = [];
    after.forEach((a, i) => {
      const b = baseline[i]!;
      if (a.descriptors > b.descriptors + 10) leaks.push(`instance ${i}: ${a.descriptors} descriptors (baseline ${b.descriptors})`);
      if (a.children > Math.max(b.children, 2)) leaks.push(`instance ${i}: ${a.children} legacy children (baseline ${b.children})`);
      if (a.rssMiB > b.rssMiB * 1.5 + 40) leaks.push(`instance ${i}: RSS ${a.rssMiB} MiB (baseline ${b.rssMiB})`);
    });
    return leaks;
  };
  let after = await Promise.all(instances.map(sample));
  let leaks = leaksIn(after);
  while (leaks.length > 0 && Date.now() - settleStarted < SETTLE_S * 1000) {
    await sleep(2000);
    after = await Promise.all(instances.map(sample));
    leaks = leaksIn(after);
  }
  const settledS = Math.round((Date.now() - settleStarted) / 1000);
  const orphans = orphansToCheck.filter(alive);
  if (orphans.length) leaks.push(`orphan legacy children of killed instances: ${orphans.join(', ')}`);

  const flowsStarted = KINDS.reduce((n, k) => n + tally.flows[k].started, 0);
  const list = (xs: string[]) => (xs.length ? `: ${xs.slice(0, 5).join('; ')}${xs.length > 5 ? ` (+${xs.length - 5})` : ''}` : '');
  const counts = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  const verdicts: Array<[string, boolean, string]> = [
    ['no wrong answer', tally.wrong.length === 0, `${tally.wrong.length} wrong${list(tally.wrong)}`],
    [
      'no hang',
      tally.hangs.length === 0,
      `${tally.hangs.length} hangs (bound ${HANG_MS / 1000} s a request, ${TASK_HANG_MS / 1000} s a task)${list(tally.hangs)}`,
    ],
    [
      'every error with a reason',
      tally.reasonless.length === 0,
      `${tally.reasonless.length} without data.reason/data.action${list(tally.reasonless)}; reasons: ${counts(tally.reasons)}`,
    ],
    ['one final status per task', tally.regressions.length === 0, `${tally.regressions.length} regressions in ${seen.size} tasks${list(tally.regressions)}`],
    [
      'nothing leaked',
      leaks.length === 0,
      `${leaks.length ? leaks.join('; ') : 'none'} (after ${settledS} s of at most ${SETTLE_S}: ${after.map((a, i) => `instance ${i} ${a.descriptors} fds / ${a.children} children / ${a.rssMiB} MiB vs ${baseline[i]!.descriptors} / ${baseline[i]!.children} / ${baseline[i]!.rssMiB}`).join('; ')}; ${orphansToCheck.length} children of killed instances checked)`,
    ],
  ];
  const failed = verdicts.filter(([, ok]) => !ok).length;
  for (const [name, ok, detail] of verdicts) process.stderr.write(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}\n`);

  await nginx.stop();
  await Promise.all(instances.map((p) => p.stop('SIGKILL')));
  await Promise.all([redis.stop('SIGKILL'), httpLegacy.stop('SIGKILL'), as.close()]);
  if (failed) process.exitCode = 1;

  return {
    name: 'chaos',
    tables: [
      {
        title: `Chaos: ${minutes} min, seed ${seed}, two instances behind nginx, Redis, ${principals.length} principals, ${tally.faults.length} faults`,
        columns: ['flow', 'started', 'completed', 'ended by an error'],
        rows: KINDS.map((k) => [k, String(tally.flows[k].started), String(tally.flows[k].completed), String(tally.flows[k].ended)]),
        notes: [
          `${flowsStarted} flows; answers not from the proxy: ${counts(tally.transport)}`,
          `faults: ${counts(
            tally.faults.reduce(
              (m, f) =>
                bump(
                  m,
                  f
                    .replace(/\d+(\.\d+)? s$/, 'N s')
                    .replace(/ \d+ of/, ' of')
                    .replace(/instance \d/, 'an instance'),
                ),
              new Map<string, number>(),
            ),
          )}`,
          ...verdicts.map(([name, ok, detail]) => `${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`),
        ],
      },
    ],
    charts: [],
    data: {
      seed,
      minutes,
      flows: tally.flows,
      wrong: tally.wrong,
      hangs: tally.hangs,
      reasonless: tally.reasonless,
      reasons: Object.fromEntries(tally.reasons),
      transport: Object.fromEntries(tally.transport),
      regressions: tally.regressions,
      faults: tally.faults,
      baseline,
      after,
      leaks,
    },
  };
}

function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : -1;
  } catch {
    return -1;
  }
}
