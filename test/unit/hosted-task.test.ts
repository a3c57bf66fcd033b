// The proxy's own tasks around plain legacy calls (hosted-task.ts, TaskTable.host) with a fake legacy
// session, and tasks read across instances through a task store: questions, answers, ends, liveness.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Interaction } from '../../src/bridge/interaction.js';
import type { HostedTaskPolicy } from '../../src/bridge/tasks/hosted-task.js';
import { HEARTBEAT_MS, TaskTable } from '../../src/bridge/tasks/task-table.js';
import { TASKS_EXTENSION } from '../../src/bridge/tasks/task-wire.js';
import type { TaskObserver } from '../../src/telemetry/ports.js';
import { principalTag } from '../../src/state/principal.js';
import type { Clock } from '../../src/clock.js';
import type { FrontCapabilities } from '../../src/protocol/capabilities.js';
import { ProxyError, type ProxyErrorCode } from '../../src/protocol/errors.js';
import type { JsonObject, Root } from '../../src/protocol/json.js';
import { holdClaims, taskClaims } from '../../src/state/claims.js';
import { createSealer } from '../../src/state/seal.js';
import { MAX_RECORD_CHARS } from '../../src/bridge/tasks/task-records.js';
import type { TaskBounds } from '../../src/bridge/tasks/task-bounds.js';
import { mayPut, type StoredTask, type TaskStore, type Writer, WriteNotSent } from '../../src/state/task-store.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { type TestClock, testClock } from '../support/clock.js';
import { type FakeCall, FakeSession, recordingLease, tick, until } from '../support/fake-session.js';

const CREATED = '2026-12-04T00:00:00.000Z';
const T0 = Date.parse(CREATED);
const POLICY: HostedTaskPolicy = { tools: ['slow'], required: [], ttlMs: 60_000, pollIntervalMs: 250, afterMs: 0 };
const TASKS: FrontCapabilities = { extensions: { [TASKS_EXTENSION]: {} } };
const ASKING: FrontCapabilities = { ...TASKS, elicitation: { form: {} } };
const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const FORM = { mode: 'form', message: 'proceed?', requestedSchema: SCHEMA };
const log = createLogger('error');
const iso = (ms: number) => new Date(ms).toISOString();

/** A task store in memory, expiring against the test clock: `dead` instances never count as alive, `down` fails every command. */
class MemoryTaskStore implements TaskStore {
  readonly records = new Map<string, StoredTask & { expiresAt: number }>();
  private readonly alive = new Map<string, number>();
  readonly dead = new Set<string>();
  down = false;

  constructor(private readonly clock: Clock) {}

  async putTask(handle: string, task: StoredTask, expiresAtMs: number, writer: Writer): Promise<boolean> {
    // A store that is down refuses the connection: the write is never sent (as the Redis store says).
    if (this.down) throw new WriteNotSent('ECONNREFUSED 127.0.0.1:6379');
    if (!mayPut(this.live(handle), writer)) return false;
    this.records.set(handle, { ...task, expiresAt: expiresAtMs });
    return true;
  }

  async dropTask(handle: string): Promise<void> {
    this.reach();
    this.records.delete(handle);
  }

  async getTask(handle: string): Promise<StoredTask | undefined> {
    this.reach();
    const r = this.live(handle);
    return r === undefined ? undefined : { record: r.record, version: r.version, final: r.final };
  }

  async versions(handles: readonly string[]): Promise<Array<number | undefined>> {
    this.reach();
    return handles.map((h) => this.live(h)?.version);
  }

  private live(handle: string): (StoredTask & { expiresAt: number }) | undefined {
    const r = this.records.get(handle);
    return r === undefined || r.expiresAt <= this.clock.now() ? undefined : r;
  }

  async markAlive(instance: string, ttlMs: number): Promise<void> {
    this.reach();
    this.alive.set(instance, this.clock.now() + ttlMs);
  }

  async isAlive(instance: string): Promise<boolean> {
    this.reach();
    return !this.dead.has(instance) && (this.alive.get(instance) ?? 0) > this.clock.now();
  }

  private reach(): void {
    if (this.down) throw new Error('ECONNREFUSED 127.0.0.1:6379');
  }
}

/** Tables a test made: closed after it, so no task's wait outlives the test. */
const opened: TaskTable[] = [];
const closeAll = async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
};

interface Ended {
  kind: string;
  tool: string;
  status: string;
  error?: string | undefined;
}

function recorder(): TaskObserver & { created: JsonObject[]; ended: Ended[] } {
  const created: JsonObject[] = [];
  const ended: Ended[] = [];
  return {
    created,
    ended,
    onCreated: ({ kind, tool, principal }) => created.push({ kind, tool, principal }),
    onEnded: ({ kind, tool, status, error }) => ended.push({ kind, tool, status, error }),
  };
}

function newTable(
  clock: TestClock,
  o: {
    key?: Uint8Array;
    instance?: string;
    upstream?: string;
    store?: TaskStore;
    roots?: Root[];
    observer?: TaskObserver;
    advertiseUrl?: string;
    heartbeatMs?: number;
    bounds?: TaskBounds;
  } = {},
): TaskTable {
  const key = o.key ?? new Uint8Array(randomBytes(32));
  const table = new TaskTable({
    sealer: createSealer(key, () => clock.now()),
    instance: o.instance ?? 'i1/up',
    upstream: o.upstream ?? 'up',
    advertiseUrl: o.advertiseUrl,
    store: o.store,
    operatorRoots: () => o.roots ?? [],
    clock,
    log,
    observer: o.observer,
    heartbeatMs: o.heartbeatMs,
    bounds: o.bounds === undefined ? undefined : () => o.bounds!,
  });
  opened.push(table);
  return table;
}

interface Hosted {
  created: JsonObject;
  taskId: string;
  session: FakeSession;
  /** The plain tools/call the task runs, as the legacy server received it. */
  call: FakeCall;
  /** What became of the call's lease. */
  released: string[];
}

let calls = 0;

/** Starts a tools/call on a lease of its own, as the bridge does for a hosted tool. */
function startCall(clock: Clock): { interaction: Interaction; session: FakeSession; released: string[] } {
  const session = new FakeSession();
  const { lease, released } = recordingLease(session);
  const interaction = new Interaction(`call-${++calls}`, { method: 'tools/call', params: { name: 'slow', arguments: {} } }, log, clock);
  interaction.start(lease);
  return { interaction, session, released };
}

/** Starts a tools/call and hands it to the table as a task. */
async function hostCall(
  table: TaskTable,
  clock: Clock,
  o: { capabilities?: FrontCapabilities; policy?: HostedTaskPolicy; legacyVersion?: string; principal?: string } = {},
): Promise<Hosted> {
  const { interaction, session, released } = startCall(clock);
  const front = { principal: o.principal ?? 'alice', capabilities: o.capabilities ?? ASKING, tool: 'slow' };
  const created = await table.host(interaction, front, o.policy ?? POLICY, { gatherMs: 0, legacyVersion: o.legacyVersion ?? '2025-11-25' });
  return { created, taskId: created['taskId'] as string, session, call: session.lastCall, released };
}

/** tasks/get until the task has `status`. */
async function reaches(table: TaskTable, taskId: string, status: string, principal = 'alice'): Promise<JsonObject> {
  let got: JsonObject = {};
  const has = async () => {
    got = await table.get(taskId, principal);
    return got['status'] === status;
  };
  await until(has, 3000, `status ${status}`);
  return got;
}

async function fails(p: Promise<unknown>, code: ProxyErrorCode, reason?: string): Promise<ProxyError> {
  let caught: ProxyError | undefined;
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ProxyError, String(err));
    assert.equal(err.code, code, err.message);
    if (reason !== undefined) assert.equal(err.data?.['reason'], reason);
    caught = err;
    return true;
  });
  return caught!;
}

/** Whether `p` has settled (after letting pending callbacks run). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await tick(5);
  return done;
}

/** Changes the first character of a compact JWE's ciphertext (its authentication then fails). */
function tamper(token: string): string {
  const parts = token.split('.');
  parts[3] = (parts[3]![0] === 'A' ? 'B' : 'A') + parts[3]!.slice(1);
  return parts.join('.');
}

const inputRequests = (got: JsonObject) => got['inputRequests'] as Record<string, JsonObject> | undefined;

describe('a hosted task (TaskTable.host)', () => {
  afterEach(closeAll);

  it('answers tools/call at once with a working task in integer milliseconds, and sends the plain call upstream', async () => {
    const clock = testClock(T0);
    const observer = recorder();
    const table = newTable(clock, { observer });
    const h = await hostCall(table, clock, { policy: { ...POLICY, ttlMs: 90_000.6, pollIntervalMs: 1500 } });
    assert.deepEqual(h.created, {
      resultType: 'task',
      taskId: h.taskId,
      status: 'working',
      createdAt: CREATED,
      lastUpdatedAt: CREATED,
      ttlMs: 90_001,
      pollIntervalMs: 1500,
    });
    assert.equal(typeof h.taskId, 'string');
    assert.ok(Number.isInteger(h.created['ttlMs']));
    assert.equal(h.call.method, 'tools/call');
    assert.deepEqual(h.call.params, { name: 'slow', arguments: {} }, 'the legacy server gets a plain call, not a task-augmented one');
    const got = await table.get(h.taskId, 'alice');
    assert.equal(got['resultType'], 'complete');
    assert.equal(got['status'], 'working');
    for (const k of ['result', 'error', 'inputRequests']) assert.equal(k in got, false, k);
    assert.deepEqual(observer.created, [{ kind: 'hosted', tool: 'slow', principal: principalTag('alice') }], 'the principal only as its tag');
    assert.deepEqual(observer.ended, []);
  });

  it("shows the call's questions as input_required, and tasks/update delivers the answers", async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock);
    clock.advance(1500);
    const question = h.session.ask('elicitation/create', { ...FORM, _meta: { 'io.example/x': 1 } });
    const asking = await reaches(table, h.taskId, 'input_required');
    assert.deepEqual(inputRequests(asking), { 'elicitation-1': { method: 'elicitation/create', params: FORM } }, 'legacy-only fields stay behind');
    assert.equal(asking['lastUpdatedAt'], iso(T0 + 1500));
    assert.equal(asking['createdAt'], CREATED);
    assert.equal(await settled(question.answer), false, 'the legacy request waits for the client');

    clock.advance(500);
    const ack = await table.update(h.taskId, 'alice', { 'elicitation-1': { action: 'accept', content: { ok: true } } }, []);
    assert.deepEqual(ack, { resultType: 'complete' });
    assert.deepEqual(await question.answer, { action: 'accept', content: { ok: true } });
    const working = await table.get(h.taskId, 'alice');
    assert.equal(working['status'], 'working');
    assert.equal('inputRequests' in working, false);
    assert.equal(working['lastUpdatedAt'], iso(T0 + 2000));

    // The call asks again: a new key, never a reused one.
    const again = h.session.ask('elicitation/create', FORM);
    assert.deepEqual(Object.keys(inputRequests(await reaches(table, h.taskId, 'input_required'))!), ['elicitation-2']);
    await table.update(h.taskId, 'alice', { 'elicitation-2': { action: 'decline' } }, []);
    assert.deepEqual(await again.answer, { action: 'decline' });
  });

  it('checks answers all or nothing: a bad one delivers none and leaves every question open', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock);
    const first = h.session.ask('elicitation/create', FORM);
    const second = h.session.ask('elicitation/create', { ...FORM, message: 'really?' });
    const asking = await reaches(table, h.taskId, 'input_required');
    assert.deepEqual(Object.keys(inputRequests(asking)!), ['elicitation-1', 'elicitation-2']);

    const good = { action: 'accept', content: { ok: true } };
    const invalid = await fails(table.update(h.taskId, 'alice', { 'elicitation-1': good, 'elicitation-2': { action: 'maybe' } }, []), 'input_invalid');
    assert.equal(invalid.data?.['key'], 'elicitation-2');
    const notObject = await fails(table.update(h.taskId, 'alice', { 'elicitation-1': { action: 'accept', content: 'yes' } }, []), 'input_invalid');
    assert.equal(notObject.data?.['key'], 'elicitation-1');
    await fails(table.update(h.taskId, 'alice', { 'elicitation-1': good }, ['elicitation-2']), 'input_invalid');
    await fails(table.update(h.taskId, 'alice', 'not an object', []), 'input_invalid');
    assert.equal(await settled(first.answer), false, 'nothing was delivered');
    assert.deepEqual(Object.keys(inputRequests(await table.get(h.taskId, 'alice'))!), ['elicitation-1', 'elicitation-2']);

    // A key that names no open question is ignored; answering some leaves the rest open.
    assert.deepEqual(await table.update(h.taskId, 'alice', { 'elicitation-9': good }, []), { resultType: 'complete' });
    assert.equal(await settled(first.answer), false);
    await table.update(h.taskId, 'alice', { 'elicitation-1': good }, []);
    assert.deepEqual(await first.answer, good);
    const rest = await table.get(h.taskId, 'alice');
    assert.equal(rest['status'], 'input_required');
    assert.deepEqual(inputRequests(rest), { 'elicitation-2': { method: 'elicitation/create', params: { ...FORM, message: 'really?' } } });
    await table.update(h.taskId, 'alice', { 'elicitation-2': { action: 'cancel' } }, []);
    assert.deepEqual(await second.answer, { action: 'cancel' });
    await reaches(table, h.taskId, 'working');
  });

  it('stops showing a question the legacy server withdrew (its own timeout) while another stays open', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock);
    const first = h.session.ask('elicitation/create', FORM);
    h.session.ask('elicitation/create', { ...FORM, message: 'really?' });
    assert.deepEqual(Object.keys(inputRequests(await reaches(table, h.taskId, 'input_required'))!), ['elicitation-1', 'elicitation-2']);
    first.withdraw();
    const open = async () => Object.keys(inputRequests(await table.get(h.taskId, 'alice')) ?? {}).join();
    await until(async () => (await open()) === 'elicitation-2', 3000, 'only the open question shown');
  });

  it('goes back to working once the legacy server withdrew its only question', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock);
    const question = h.session.ask('elicitation/create', FORM);
    await reaches(table, h.taskId, 'input_required');
    question.withdraw();
    await until(async () => (await table.get(h.taskId, 'alice'))['status'] === 'working', 500, 'the withdrawn question to go');
  });

  it('refuses the legacy server a question the creating request did not declare, and never shows it', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock, { capabilities: TASKS });
    const refusal = (code: number, message: RegExp) => (err: unknown) => {
      assert.ok(err instanceof McpError, String(err));
      assert.equal(err.code, code);
      assert.match(err.message, message);
      return true;
    };
    await assert.rejects(h.session.ask('sampling/createMessage', { messages: [], maxTokens: 5 }).answer, refusal(-1, /the client did not declare sampling$/));
    await assert.rejects(h.session.ask('elicitation/create', FORM).answer, refusal(-32600, /did not declare elicitation\.form$/));
    await assert.rejects(h.session.ask('roots/list').answer, refusal(-32600, /did not declare roots$/), 'no operator roots to answer with');
    const got = await table.get(h.taskId, 'alice');
    assert.equal(got['status'], 'working');
    assert.equal('inputRequests' in got, false);
    assert.equal(h.call.signal?.aborted, false, 'the call goes on');
  });

  it('shows only what was declared from a mixed batch', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock, { capabilities: ASKING });
    const url = h.session.ask('elicitation/create', { mode: 'url', message: 'sign in', url: 'https://example.com/login', elicitationId: 'e1' });
    const form = h.session.ask('elicitation/create', FORM);
    await assert.rejects(url.answer, (err: unknown) => err instanceof McpError && /elicitation\.url/.test(err.message));
    const asking = await reaches(table, h.taskId, 'input_required');
    assert.deepEqual(Object.keys(inputRequests(asking)!), ['elicitation-2']);
    await table.update(h.taskId, 'alice', { 'elicitation-2': { action: 'decline' } }, []);
    assert.deepEqual(await form.answer, { action: 'decline' });
  });

  it("answers roots/list with the operator's roots for a client that declared none, and asks a client that did", async () => {
    const clock = testClock(T0);
    const roots = [{ uri: 'file:///srv/projects/a', name: 'a' }];
    const table = newTable(clock, { roots });
    const h = await hostCall(table, clock, { capabilities: TASKS });
    assert.deepEqual(await h.session.ask('roots/list').answer, { roots });
    const got = await table.get(h.taskId, 'alice');
    assert.equal(got['status'], 'working');
    assert.equal('inputRequests' in got, false);

    const declared = await hostCall(table, clock, { capabilities: { ...TASKS, roots: {} } });
    const asked = declared.session.ask('roots/list');
    const asking = await reaches(table, declared.taskId, 'input_required');
    assert.deepEqual(inputRequests(asking), { 'roots-1': { method: 'roots/list' } });
    await table.update(declared.taskId, 'alice', { 'roots-1': { roots: [{ uri: 'file:///home/alice' }] } }, []);
    assert.deepEqual(await asked.answer, { roots: [{ uri: 'file:///home/alice' }] });
  });

  it("shapes a sampling answer for the legacy server's revision", async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock, { capabilities: { ...TASKS, sampling: {} }, legacyVersion: '2025-06-18' });
    const asked = h.session.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    await reaches(table, h.taskId, 'input_required');
    const block = { type: 'text', text: 'hello' };
    const answer = (content: JsonObject[]) => ({ 'sampling-1': { role: 'assistant', model: 'm', content } });
    await fails(table.update(h.taskId, 'alice', answer([block, block]), []), 'input_invalid');
    await table.update(h.taskId, 'alice', answer([block]), []);
    assert.deepEqual(await asked.answer, { role: 'assistant', model: 'm', content: block }, '2025-06-18 takes a single content block');
  });

  it("completes with the call's result inlined on tasks/get", async () => {
    const clock = testClock(T0);
    const observer = recorder();
    const table = newTable(clock, { observer });
    const h = await hostCall(table, clock);
    clock.advance(3000);
    h.call.resolve({ content: [{ type: 'text', text: 'done' }], structuredContent: { n: 1 }, _meta: { 'io.example/x': 2 } });
    const done = await reaches(table, h.taskId, 'completed');
    assert.deepEqual(done['result'], {
      resultType: 'complete',
      content: [{ type: 'text', text: 'done' }],
      structuredContent: { n: 1 },
      _meta: { 'io.example/x': 2 },
    });
    assert.equal(done['lastUpdatedAt'], iso(T0 + 3000));
    assert.equal('error' in done, false);
    assert.deepEqual(h.released, ['release'], 'a healthy session goes back to the pool');
    assert.deepEqual(observer.ended, [{ kind: 'hosted', tool: 'slow', status: 'completed', error: undefined }]);
    // Finished: tasks/cancel and tasks/update are acks that change nothing.
    assert.deepEqual(await table.cancel(h.taskId, 'alice'), { resultType: 'complete' });
    assert.deepEqual(await table.update(h.taskId, 'alice', { 'elicitation-1': { action: 'decline' } }, []), { resultType: 'complete' });
    assert.equal((await table.get(h.taskId, 'alice'))['status'], 'completed');
    assert.equal(observer.ended.length, 1);
  });

  it('gives a result without content an empty content list, and a tool error is completed, not failed', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const bare = await hostCall(table, clock);
    bare.call.resolve({ structuredContent: { n: 1 } });
    assert.deepEqual((await reaches(table, bare.taskId, 'completed'))['result'], { resultType: 'complete', structuredContent: { n: 1 }, content: [] });

    const toolError = await hostCall(table, clock);
    toolError.call.resolve({ content: [{ type: 'text', text: 'no such city' }], isError: true });
    const done = await reaches(table, toolError.taskId, 'completed');
    assert.deepEqual(done['result'], { resultType: 'complete', content: [{ type: 'text', text: 'no such city' }], isError: true });
    assert.equal('error' in done, false);
  });

  it('fails with the legacy JSON-RPC error, translated for the 2026-07-28 wire', async () => {
    const clock = testClock(T0);
    const observer = recorder();
    const table = newTable(clock, { observer });
    const h = await hostCall(table, clock);
    h.call.reject(new McpError(-32602, 'unknown city', { city: 'Atlantis' }));
    const failed = await reaches(table, h.taskId, 'failed');
    assert.deepEqual(failed['error'], { code: -32602, message: 'unknown city', data: { city: 'Atlantis' } });
    assert.equal('result' in failed, false);
    assert.deepEqual(observer.ended, [{ kind: 'hosted', tool: 'slow', status: 'failed', error: 'unknown city' }]);

    // A code 2026-07-28 reserves is not emitted: an internal error that keeps the legacy code.
    const reserved = await hostCall(table, clock);
    reserved.call.reject(new McpError(-32050, 'quota exceeded'));
    assert.deepEqual((await reaches(table, reserved.taskId, 'failed'))['error'], {
      code: -32603,
      message: 'quota exceeded',
      data: { upstreamCode: -32050 },
    });
  });

  it('fails with the reason when the legacy session is lost', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const h = await hostCall(table, clock);
    await h.session.close('the server process exited');
    const failed = await reaches(table, h.taskId, 'failed');
    assert.equal((failed['error'] as JsonObject)['code'], -32603);
    assert.match((failed['error'] as JsonObject)['message'] as string, /session ended during the call \(the server process exited\)/);
    assert.deepEqual(h.released, ['discard: session closed during the call']);
  });

  it('cancels: the legacy call is aborted, its open question cancelled, and tasks/cancel acks, again too', async () => {
    const clock = testClock(T0);
    const observer = recorder();
    const table = newTable(clock, { observer });
    const h = await hostCall(table, clock);
    const question = h.session.ask('elicitation/create', FORM);
    await reaches(table, h.taskId, 'input_required');
    clock.advance(700);
    assert.deepEqual(await table.cancel(h.taskId, 'alice'), { resultType: 'complete' });
    assert.equal(h.call.signal?.aborted, true, 'the legacy call is cancelled upstream');
    assert.deepEqual(await question.answer, { action: 'cancel' });
    const cancelled = await table.get(h.taskId, 'alice');
    assert.equal(cancelled['status'], 'cancelled');
    assert.equal(cancelled['lastUpdatedAt'], iso(T0 + 700));
    for (const k of ['result', 'error', 'inputRequests']) assert.equal(k in cancelled, false, k);
    assert.deepEqual(h.released, ['discard: cancelled by the client']);

    assert.deepEqual(await table.cancel(h.taskId, 'alice'), { resultType: 'complete' });
    assert.deepEqual(await table.update(h.taskId, 'alice', { 'elicitation-1': { action: 'decline' } }, []), { resultType: 'complete' });
    await tick(5);
    assert.equal((await table.get(h.taskId, 'alice'))['status'], 'cancelled', 'the aborted call does not turn it into failed');
    assert.deepEqual(observer.ended, [{ kind: 'hosted', tool: 'slow', status: 'cancelled', error: undefined }]);
  });

  it("fails a call that outlives the task's ttl, and cancels it", async () => {
    const clock = testClock(T0);
    const observer = recorder();
    const table = newTable(clock, { observer });
    const h = await hostCall(table, clock, { policy: { ...POLICY, ttlMs: 200, pollIntervalMs: 100 } });
    await until(() => observer.ended.length > 0, 3000, 'the task to end');
    assert.equal(observer.ended.length, 1);
    assert.equal(observer.ended[0]!.status, 'failed');
    assert.match(observer.ended[0]!.error ?? '', /outlived the task's ttl/);
    assert.equal(h.call.signal?.aborted, true);
    assert.match(h.released[0] ?? '', /^discard: the call outlived the task's ttl/);
    // The ttl is also how long the task is kept: it is gone now.
    await fails(table.get(h.taskId, 'alice'), 'task_unknown', 'expired');
  });

  it('takes over a call that already ran a round (tasks.after): created then, its next question under a fresh key', async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const { interaction, session } = startCall(clock);
    const early = session.ask('elicitation/create', FORM);
    const round = await interaction.next({ gatherMs: 0, timeoutMs: 1000, signal: new AbortController().signal });
    assert.equal(round.kind, 'input');
    interaction.answer('elicitation-1', { action: 'accept', content: { ok: true } });
    assert.deepEqual(await early.answer, { action: 'accept', content: { ok: true } });
    clock.advance(4000);
    const created = await table.host(
      interaction,
      { principal: 'alice', capabilities: ASKING, tool: 'slow' },
      { ...POLICY, afterMs: 4000 },
      {
        gatherMs: 0,
        legacyVersion: '2025-11-25',
      },
    );
    assert.equal(created['createdAt'], iso(T0 + 4000));
    const taskId = created['taskId'] as string;
    session.ask('elicitation/create', FORM);
    assert.deepEqual(Object.keys(inputRequests(await reaches(table, taskId, 'input_required'))!), ['elicitation-2']);
    session.lastCall.resolve({ content: [{ type: 'text', text: 'booked' }] });
    assert.deepEqual((await reaches(table, taskId, 'completed'))['result'], { resultType: 'complete', content: [{ type: 'text', text: 'booked' }] });
  });

  it("finds no task for another principal, a forged id, or another upstream's table", async () => {
    const clock = testClock(T0);
    const key = new Uint8Array(randomBytes(32));
    const table = newTable(clock, { key });
    const h = await hostCall(table, clock);
    await fails(table.get(h.taskId, 'bob'), 'task_unknown', 'unknown');
    await fails(table.update(h.taskId, 'bob', { 'elicitation-1': { action: 'decline' } }, []), 'task_unknown', 'unknown');
    await fails(table.cancel(h.taskId, 'bob'), 'task_unknown', 'unknown');
    await fails(table.get(tamper(h.taskId), 'alice'), 'task_unknown', 'unknown');
    await fails(table.get(42, 'alice'), 'task_unknown', 'unknown');
    const other = newTable(clock, { key, instance: 'i1/other', upstream: 'other' });
    await fails(other.get(h.taskId, 'alice'), 'task_unknown', 'unknown');
    // Bob's attempts changed nothing.
    assert.equal(h.call.signal?.aborted, false);
    assert.equal((await table.get(h.taskId, 'alice'))['status'], 'working');
    const bobs = await hostCall(table, clock, { principal: 'bob' });
    await fails(table.get(bobs.taskId, 'alice'), 'task_unknown', 'unknown');
    assert.equal((await table.get(bobs.taskId, 'bob'))['status'], 'working');
  });

  it('fails its running tasks and cancels their calls when the proxy stops', async () => {
    const clock = testClock(T0);
    const observer = recorder();
    const table = newTable(clock, { observer });
    const h = await hostCall(table, clock);
    const question = h.session.ask('elicitation/create', FORM);
    await reaches(table, h.taskId, 'input_required');
    await table.close();
    assert.equal(h.call.signal?.aborted, true);
    assert.deepEqual(await question.answer, { action: 'cancel' });
    assert.deepEqual(observer.ended, [{ kind: 'hosted', tool: 'slow', status: 'failed', error: 'the proxy instance running the task stopped' }]);
    await fails(table.get(h.taskId, 'alice'), 'task_unknown', 'expired');
  });
});

describe('hosted tasks across instances (a task store)', () => {
  afterEach(closeAll);

  /** Two instances of one upstream sharing a key and a store. */
  function cluster(o: { store?: boolean; advertiseA?: string } = {}) {
    const clock = testClock(T0);
    const key = new Uint8Array(randomBytes(32));
    const store = new MemoryTaskStore(clock);
    const shared = o.store === false ? undefined : store;
    const a = newTable(clock, { key, instance: 'i1/up', store: shared, ...(o.advertiseA === undefined ? {} : { advertiseUrl: o.advertiseA }) });
    const b = newTable(clock, { key, instance: 'i2/up', store: shared });
    return { clock, key, store, a, b };
  }

  it('lets another instance read the task: working, its questions, its result', async () => {
    const { clock, a, b } = cluster();
    const h = await hostCall(a, clock);
    assert.deepEqual(await b.get(h.taskId, 'alice'), await a.get(h.taskId, 'alice'), 'written before the id reached the client');
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'working');

    clock.advance(1000);
    const question = h.session.ask('elicitation/create', FORM);
    const asking = await reaches(b, h.taskId, 'input_required');
    assert.deepEqual(asking, await a.get(h.taskId, 'alice'));
    assert.deepEqual(inputRequests(asking), { 'elicitation-1': { method: 'elicitation/create', params: FORM } });

    await a.update(h.taskId, 'alice', { 'elicitation-1': { action: 'accept', content: { ok: false } } }, []);
    assert.deepEqual(await question.answer, { action: 'accept', content: { ok: false } });
    assert.equal('inputRequests' in (await reaches(b, h.taskId, 'working')), false);

    h.call.resolve({ content: [{ type: 'text', text: 'done' }] });
    const done = await reaches(b, h.taskId, 'completed');
    assert.deepEqual(done['result'], { resultType: 'complete', content: [{ type: 'text', text: 'done' }] });
    assert.deepEqual(done, await a.get(h.taskId, 'alice'));
    // Finished: another instance acks tasks/cancel and tasks/update.
    assert.deepEqual(await b.cancel(h.taskId, 'alice'), { resultType: 'complete' });
    assert.deepEqual(await b.update(h.taskId, 'alice', {}, []), { resultType: 'complete' });
    assert.equal((await a.get(h.taskId, 'alice'))['status'], 'completed');
    await fails(b.get(h.taskId, 'bob'), 'task_unknown', 'unknown');
  });

  it('reads a failed task with its error', async () => {
    const { clock, a, b } = cluster();
    const h = await hostCall(a, clock);
    h.call.reject(new McpError(-32602, 'unknown city'));
    const failed = await reaches(b, h.taskId, 'failed');
    assert.deepEqual(failed['error'], { code: -32602, message: 'unknown city' });
  });

  it('seals the records: the store reads nothing, and a tampered, moved or misowned record is an unknown task', async () => {
    const { clock, key, store, a, b } = cluster();
    const h = await hostCall(a, clock);
    h.call.resolve({ content: [{ type: 'text', text: 'zq-secret-result-77' }] });
    await reaches(b, h.taskId, 'completed');
    assert.equal(store.records.size, 1);
    const [handle, entry] = [...store.records][0]!;
    for (const secret of ['zq-secret-result-77', 'alice', 'i1/up', 'completed', handle]) {
      assert.ok(!entry.record.includes(secret), `the record shows ${secret}`);
    }
    assert.equal(entry.expiresAt, T0 + POLICY.ttlMs, 'kept for the task ttl');

    store.records.set(handle, { ...entry, record: tamper(entry.record) });
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'unknown');

    // Another task's record under this task's key does not pass for it.
    const other = await hostCall(a, clock);
    const otherHandle = [...store.records.keys()].find((k) => k !== handle)!;
    store.records.set(handle, store.records.get(otherHandle)!);
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'unknown');
    assert.equal((await b.get(other.taskId, 'alice'))['status'], 'working');

    // A requestState is no record.
    const sealer = createSealer(key, () => clock.now());
    const state = await sealer.seal(holdClaims({ handle, instance: 'i1/up', round: 0, principal: 'alice', fingerprint: 'task' }), T0 + 60_000);
    store.records.set(handle, { ...entry, record: state });
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'unknown');

    // The genuine record, but an id (sealed with the key) that names another owner for it.
    store.records.set(handle, entry);
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'completed');
    const misowned = await sealer.seal(taskClaims({ handle, instance: 'i3/up', principal: 'alice', upstream: 'up' }), T0 + 60_000);
    await fails(b.get(misowned, 'alice'), 'task_unknown', 'unknown');
  });

  it("is failed with the reason once its owner stops, and another instance's cancel acks", async () => {
    const { clock, a, b } = cluster();
    const h = await hostCall(a, clock);
    h.session.ask('elicitation/create', FORM);
    await reaches(b, h.taskId, 'input_required');
    await a.close();
    assert.equal(h.call.signal?.aborted, true);
    const failed = await b.get(h.taskId, 'alice');
    assert.equal(failed['status'], 'failed');
    assert.deepEqual(failed['error'], { code: -32603, message: 'the proxy instance running the task stopped' });
    assert.equal('inputRequests' in failed, false);
    assert.deepEqual(await b.cancel(h.taskId, 'alice'), { resultType: 'complete' });
    assert.deepEqual(await b.update(h.taskId, 'alice', { 'elicitation-1': { action: 'decline' } }, []), { resultType: 'complete' });
  });

  it('fails a running task whose owner is no longer alive, and keeps a finished one', async () => {
    const { clock, store, a, b } = cluster();
    const h = await hostCall(a, clock);
    h.session.ask('elicitation/create', FORM);
    await reaches(b, h.taskId, 'input_required');
    clock.advance(2000);
    store.dead.add('i1/up');
    const failed = await b.get(h.taskId, 'alice');
    assert.equal(failed['status'], 'failed');
    assert.deepEqual(failed['error'], { code: -32603, message: 'the proxy instance running the task stopped before the task ended' });
    assert.equal(failed['lastUpdatedAt'], iso(T0 + 2000));
    assert.equal(failed['createdAt'], CREATED);
    assert.equal('inputRequests' in failed, false);
    // The reader wrote the failure back, for every other instance.
    store.dead.delete('i1/up');
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'failed');
    assert.deepEqual(await b.cancel(h.taskId, 'alice'), { resultType: 'complete' });

    const finished = await hostCall(a, clock);
    finished.call.resolve({ content: [] });
    await reaches(b, finished.taskId, 'completed');
    store.dead.add('i1/up');
    const kept = await b.get(finished.taskId, 'alice');
    assert.equal(kept['status'], 'completed');
    assert.deepEqual(kept['result'], { resultType: 'complete', content: [] });
  });

  it('counts an owner that missed its heartbeats as gone', async () => {
    const { clock, a, b } = cluster();
    const h = await hostCall(a, clock);
    clock.advance(2 * HEARTBEAT_MS);
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'working', 'two missed beats: still alive');
    clock.advance(HEARTBEAT_MS + 1);
    const failed = await b.get(h.taskId, 'alice');
    assert.equal(failed['status'], 'failed');
    assert.match((failed['error'] as JsonObject)['message'] as string, /stopped before the task ended/);
  });

  it("counts each principal's running tasks until they end", async () => {
    const clock = testClock(T0);
    const table = newTable(clock);
    const first = await hostCall(table, clock);
    const second = await hostCall(table, clock);
    assert.equal(table.runningOf('alice'), 2);
    assert.equal(table.runningOf('bob'), 0);
    first.call.resolve({ content: [] });
    await reaches(table, first.taskId, 'completed');
    assert.equal(table.runningOf('alice'), 1);
    await table.cancel(second.taskId, 'alice');
    await table.cancel(second.taskId, 'alice');
    assert.equal(table.runningOf('alice'), 0, 'counted down once per task');
  });

  it('fails its own running tasks once its liveness mark has lapsed for want of the store, as the other instances would', async () => {
    const clock = testClock(T0);
    const store = new MemoryTaskStore(clock);
    // Heartbeats every 40 ms of real time (the test clock follows its timers): the mark lasts 120 ms.
    const a = newTable(clock, { store, heartbeatMs: 40 });
    const h = await hostCall(a, clock);
    const done = await hostCall(a, clock);
    done.call.resolve({ content: [] });
    await reaches(a, done.taskId, 'completed');
    store.down = true;
    await until(async () => (await a.get(h.taskId, 'alice'))['status'] === 'failed', 3000, 'the running task failed');
    const failed = await a.get(h.taskId, 'alice');
    assert.match((failed['error'] as JsonObject)['message'] as string, /lost the state store/);
    assert.equal(h.call.signal?.aborted, true, 'its call is cancelled');
    assert.equal((await a.get(done.taskId, 'alice'))['status'], 'completed', 'a finished task stays as it was');
  });

  it("refuses another instance's tasks/update and tasks/cancel of a running task whose owner is alive", async () => {
    const { clock, a, b } = cluster();
    const h = await hostCall(a, clock);
    const cancel = await fails(b.cancel(h.taskId, 'alice'), 'upstream_unavailable', 'owner_unreachable');
    assert.match(cancel.message, /--advertise-url/);
    await fails(b.update(h.taskId, 'alice', { 'elicitation-1': { action: 'decline' } }, []), 'upstream_unavailable', 'owner_unreachable');
    assert.equal(h.call.signal?.aborted, false, 'the task runs on');
    assert.equal((await a.get(h.taskId, 'alice'))['status'], 'working');
    await fails(b.cancel(h.taskId, 'bob'), 'task_unknown', 'unknown');

    const advertised = cluster({ advertiseA: 'http://10.0.0.1:8080' });
    const h2 = await hostCall(advertised.a, advertised.clock);
    const unreachable = await fails(advertised.b.cancel(h2.taskId, 'alice'), 'upstream_unavailable', 'owner_unreachable');
    assert.match(unreachable.message, /cannot reach now; try again/);
  });

  it('without a store, tells another instance the task is gone', async () => {
    const { clock, a, b } = cluster({ store: false });
    const h = await hostCall(a, clock);
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'owner_gone');
    await fails(b.cancel(h.taskId, 'alice'), 'task_unknown', 'owner_gone');
    await fails(b.update(h.taskId, 'alice', {}, []), 'task_unknown', 'owner_gone');
    await fails(b.get(h.taskId, 'bob'), 'task_unknown', 'unknown');
  });

  it('says the task has expired once its record is gone', async () => {
    const { clock, store, a, b } = cluster();
    const h = await hostCall(a, clock);
    store.records.clear();
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'expired');
  });

  it('never completes a task another instance failed while its owner was away: the owner ends it as failed too', async () => {
    const { clock, store, a, b } = cluster();
    const h = await hostCall(a, clock);
    // The owner's mark lapsed (paused, or cut off): another instance fails the task.
    store.dead.add('i1/up');
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'failed');
    store.dead.delete('i1/up');
    // The owner resumes and its call completes: its `completed` may not replace the `failed`.
    h.call.resolve({ content: [{ type: 'text', text: 'late' }] });
    const seen: string[] = [];
    await until(
      async () => {
        seen.push((await a.get(h.taskId, 'alice'))['status'] as string);
        return seen.at(-1) === 'failed';
      },
      3000,
      'the owner reads failed',
    );
    assert.ok(!seen.includes('completed'), seen.join(' → '));
    const [mine, theirs] = [await a.get(h.taskId, 'alice'), await b.get(h.taskId, 'alice')];
    assert.deepEqual(mine, theirs);
    assert.match((mine['error'] as JsonObject)['message'] as string, /stopped before the task ended/);
    assert.equal('result' in mine, false);
  });

  it('fails its running tasks once its own mark has lapsed, though the store answers again (a pause)', async () => {
    const clock = testClock(T0);
    const store = new MemoryTaskStore(clock);
    const a = newTable(clock, { store, heartbeatMs: 40 });
    const h = await hostCall(a, clock);
    await new Promise((r) => setTimeout(r, 100));
    // Time passes with no heartbeat, as in a SIGSTOP: the next heartbeat finds the mark lapsed.
    clock.advance(1000);
    await until(async () => (await a.get(h.taskId, 'alice'))['status'] === 'failed', 3000, 'the running task failed');
    assert.match(((await a.get(h.taskId, 'alice'))['error'] as JsonObject)['message'] as string, /paused/);
    assert.equal(h.call.signal?.aborted, true);
  });

  it('shows a completion only once the store has it, and writes one made while the store was away when it returns', async () => {
    const clock = testClock(T0);
    const key = new Uint8Array(randomBytes(32));
    const store = new MemoryTaskStore(clock);
    const a = newTable(clock, { key, store, heartbeatMs: 40 });
    const b = newTable(clock, { key, instance: 'i2/up', store });
    const h = await hostCall(a, clock);
    store.down = true;
    h.call.resolve({ content: [{ type: 'text', text: 'done' }] });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal((await a.get(h.taskId, 'alice'))['status'], 'working', 'not completed before the store has it');
    store.down = false;
    const done = await reaches(a, h.taskId, 'completed');
    assert.deepEqual(await b.get(h.taskId, 'alice'), done);
  });

  it("writes its tasks' records again after the store lost them, and heals a record rolled back", async () => {
    const clock = testClock(T0);
    const key = new Uint8Array(randomBytes(32));
    const store = new MemoryTaskStore(clock);
    const a = newTable(clock, { key, store, heartbeatMs: 40 });
    const b = newTable(clock, { key, instance: 'i2/up', store });
    const h = await hostCall(a, clock);
    const asked = h.session.ask('elicitation/create', FORM);
    await reaches(b, h.taskId, 'input_required');
    const handle = [...store.records.keys()][0]!;
    const old = store.records.get(handle)!;

    store.records.clear();
    // Gone for other instances until the owner's next heartbeat.
    await until(async () => (await b.get(h.taskId, 'alice').catch(() => ({}) as JsonObject))['status'] === 'input_required', 3000, 'written again');

    await a.update(h.taskId, 'alice', { 'elicitation-1': { action: 'accept', content: { ok: true } } }, []);
    await asked.answer;
    h.call.resolve({ content: [] });
    await reaches(b, h.taskId, 'completed');
    // The older record put back: an instance that read the newer one does not answer from it, and
    // the owner's next heartbeat writes the final one again.
    store.records.set(handle, old);
    const c = newTable(clock, { key, instance: 'i3/up', store });
    const stale = await c.get(h.taskId, 'alice').catch(() => undefined);
    await until(
      async () => {
        const got = await b.get(h.taskId, 'alice').catch((err: unknown) => {
          assert.equal((err as ProxyError).data?.['reason'], 'state_store_unavailable', String(err));
          return undefined;
        });
        assert.notEqual(got?.['status'], 'input_required', 'never the older status again');
        return got?.['status'] === 'completed';
      },
      3000,
      'the final record written again',
    );
    // An instance that never read the newer one may read the older until then: the limit of a rollback.
    assert.ok(stale === undefined || stale['status'] === 'input_required' || stale['status'] === 'completed');
    assert.equal(store.records.get(handle)!.final, true);
  });

  it('opens no record whose stored version disagrees with its own, nor one too large', async () => {
    const { clock, store, a, b } = cluster();
    const h = await hostCall(a, clock);
    const [handle, entry] = [...store.records][0]!;
    store.records.set(handle, { ...entry, version: entry.version + 5 });
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'unknown');
    store.records.set(handle, { ...entry, record: 'x'.repeat(MAX_RECORD_CHARS + 1) });
    await fails(b.get(h.taskId, 'alice'), 'task_unknown', 'unknown');
    store.records.set(handle, entry);
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'working');
  });

  it('fails a task whose result is too large to keep, for every instance, and drops the oldest finished tasks of a principal', async () => {
    const clock = testClock(T0);
    const key = new Uint8Array(randomBytes(32));
    const store = new MemoryTaskStore(clock);
    const dropped: string[] = [];
    const observer = { onCreated() {}, onEnded() {}, onDropped: (e: { reason: string }) => void dropped.push(e.reason) };
    const bounds = { maxResultBytes: 2048, maxFinished: 2, maxFinishedBytes: 1_000_000 };
    const a = newTable(clock, { key, store, bounds, observer });
    const b = newTable(clock, { key, instance: 'i2/up', store });
    const big = await hostCall(a, clock);
    big.call.resolve({ content: [{ type: 'text', text: 'x'.repeat(4000) }] });
    const failed = await reaches(b, big.taskId, 'failed');
    assert.match((failed['error'] as JsonObject)['message'] as string, /larger than the proxy keeps for a task/);
    assert.deepEqual(await a.get(big.taskId, 'alice'), failed);
    assert.deepEqual(dropped, ['result_too_large']);

    const more = [await hostCall(a, clock), await hostCall(a, clock)];
    const other = await hostCall(a, clock, { principal: 'bob' });
    for (const h of [...more, other]) {
      clock.advance(10);
      h.call.resolve({ content: [] });
      await reaches(a, h.taskId, 'completed', h === other ? 'bob' : 'alice');
    }
    // Alice kept two: the oldest (the failed one) went, in this instance and in the store.
    await fails(a.get(big.taskId, 'alice'), 'task_unknown', 'expired');
    await until(async () => (await b.get(big.taskId, 'alice').catch(() => undefined)) === undefined, 3000, 'dropped from the store');
    for (const h of more) assert.equal((await b.get(h.taskId, 'alice'))['status'], 'completed');
    assert.equal((await a.get(other.taskId, 'bob'))['status'], 'completed', "another principal's are its own");
    assert.deepEqual(dropped, ['result_too_large', 'finished_cap']);
  });

  it('says a store that cannot be reached is unavailable, not that the task is unknown', async () => {
    const { clock, store, a, b } = cluster();
    const h = await hostCall(a, clock);
    store.down = true;
    const down = await fails(b.get(h.taskId, 'alice'), 'store_unavailable', 'state_store_unavailable');
    assert.doesNotMatch(down.message, /ECONNREFUSED|6379/, "the store's own words are logged, not sent");
    await fails(b.cancel(h.taskId, 'alice'), 'store_unavailable', 'state_store_unavailable');
    await fails(b.update(h.taskId, 'alice', {}, []), 'store_unavailable', 'state_store_unavailable');
    assert.equal((await a.get(h.taskId, 'alice'))['status'], 'working', 'the owner answers from its own table');
    // A record found, but no word on whether its owner lives.
    store.down = false;
    const isAlive = store.isAlive.bind(store);
    store.isAlive = async () => {
      throw new Error('READONLY');
    };
    assert.doesNotMatch((await fails(b.get(h.taskId, 'alice'), 'store_unavailable', 'state_store_unavailable')).message, /READONLY/);
    store.isAlive = isAlive;
    assert.equal((await b.get(h.taskId, 'alice'))['status'], 'working');
  });
});
