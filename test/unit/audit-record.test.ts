// The audit's pure parts: shapes of what was asked, the client's action, the outcome; and the
// recorder following one interaction's events on a frozen clock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeAnswer, describeAsk, outcomeOf, samplingShape, schemaShape, targetOf, type AuditRecord } from '../../src/audit/record.js';
import { taskLine } from '../../src/audit/audit.js';
import { AuditRecorder } from '../../src/audit/recorder.js';
import { testClock } from '../support/clock.js';

describe('audit record parts', () => {
  it('names the target of each interactive method', () => {
    assert.equal(targetOf('tools/call', { name: 'ask', arguments: {} }), 'ask');
    assert.equal(targetOf('prompts/get', { name: 'p' }), 'p');
    assert.equal(targetOf('resources/read', { uri: 'file:///x' }), 'file:///x');
    assert.equal(targetOf('tools/call', {}), '');
  });

  it('keeps a schema shape without texts, defaults or enum values', () => {
    const shape = schemaShape({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Your name', default: 'Ada Lovelace' },
        color: { type: 'string', enum: ['red', 'green'] },
        when: { type: 'string', format: 'date' },
      },
      required: ['name'],
    });
    assert.deepEqual(shape, {
      properties: {
        name: { type: 'string', required: true },
        color: { type: 'string', enum: 2, required: false },
        when: { type: 'string', format: 'date', required: false },
      },
    });
    assert.doesNotMatch(JSON.stringify(shape), /Ada|"red"|Your name/);
  });

  it('keeps the sampling parameters without the messages', () => {
    const s = samplingShape({
      messages: [{ role: 'user', content: { type: 'text', text: 'top secret prompt' } }],
      maxTokens: 10,
      systemPrompt: 'be nice',
      modelPreferences: { hints: [{ name: 'claude' }] },
    });
    assert.deepEqual(s, {
      messages: 1,
      roles: ['user'],
      contentTypes: ['text'],
      maxTokens: 10,
      systemPrompt: true,
      temperature: false,
      stopSequences: 0,
      modelHints: 1,
      tools: 0,
    });
    assert.doesNotMatch(JSON.stringify(s), /secret|nice|claude/);
  });

  it('describes asks and answers by method', () => {
    assert.deepEqual(describeAsk('elicitation/create', { mode: 'url', url: 'https://x', message: 'm' }), { elicitationMode: 'url' });
    assert.equal(describeAsk('elicitation/create', { requestedSchema: {} }).elicitationMode, 'form');
    assert.deepEqual(describeAsk('roots/list', undefined), {});
    const schema = { properties: { name: { type: 'string', required: true } } };
    assert.deepEqual(describeAnswer('elicitation/create', { action: 'accept', content: { name: 'secret' } }, schema), { action: 'accept', fields: ['name'] });
    assert.deepEqual(
      describeAnswer('elicitation/create', { action: 'accept', content: { name: 'x', 'invented-by-the-client': 'y' } }, schema),
      { action: 'accept', fields: ['name'] },
      "a field name the requested schema does not have is the client's content",
    );
    assert.deepEqual(describeAnswer('elicitation/create', { action: 'accept', content: { name: 'x' } }), { action: 'accept' }, 'no schema known: no names');
    assert.deepEqual(describeAnswer('elicitation/create', { action: 'planted-action' }), { action: 'unknown' }, 'an action outside the spec is not echoed');
    assert.deepEqual(describeAnswer('elicitation/create', { action: 'decline' }), { action: 'decline' });
    assert.deepEqual(describeAnswer('sampling/createMessage', { model: 'm' }), { action: 'accept' });
  });

  it('turns an end event into an outcome', () => {
    assert.deepEqual(outcomeOf({ reason: 'completed', result: { content: [], isError: true } }), { kind: 'complete', isError: true });
    assert.deepEqual(
      outcomeOf({ reason: 'completed', error: { code: -32602, message: 'bad x' } }),
      { kind: 'error', code: -32602 },
      'the message may echo the arguments',
    );
    assert.deepEqual(outcomeOf({ reason: 'completed', error: { code: -32602, message: 'bad x' } }, true), { kind: 'error', code: -32602, message: 'bad x' });
    assert.deepEqual(outcomeOf({ reason: 'expired' }), { kind: 'expired' });
    assert.deepEqual(outcomeOf({ reason: 'cancelled', why: 'timeout' }), { kind: 'cancelled', why: 'timeout' });
    assert.equal(outcomeOf({ reason: 'lost' }).kind, 'lost');
  });
});

describe('audit recorder', () => {
  function run(content: boolean): AuditRecord[] {
    const clock = testClock();
    const out: AuditRecord[] = [];
    const r = new AuditRecorder({ upstream: 'u', clock, content, sink: (x) => out.push(x) });
    r.onStart({ handle: 'h', method: 'tools/call', params: { name: 'ask', arguments: { q: 'arg-secret' } }, mode: 'hold' });
    clock.advance(30);
    r.onRound({
      handle: 'h',
      round: 1,
      asked: [{ key: 'elicitation-1', method: 'elicitation/create', params: { message: 'm', requestedSchema: { properties: { pin: { type: 'string' } } } } }],
    });
    clock.advance(2000);
    r.onAnswers({ handle: 'h', round: 1, answers: new Map([['elicitation-1', { action: 'accept', content: { pin: 'answer-secret' } }]]) });
    clock.advance(5);
    r.onEnd({ handle: 'h', reason: 'completed', result: { content: [{ type: 'text', text: 'result' }] } });
    r.onEnd({ handle: 'h', reason: 'completed' });
    return out;
  }

  it('writes one record per call with rounds, action and timings, and no content', () => {
    const [rec, ...more] = run(false);
    assert.equal(more.length, 0, 'a second end of the same handle writes nothing');
    assert.equal(rec!.target, 'ask');
    assert.equal(rec!.rounds, 1);
    assert.equal(rec!.durationMs, 2035);
    assert.equal(rec!.finalServerMs, 5);
    assert.deepEqual(rec!.requests, [
      {
        round: 1,
        key: 'elicitation-1',
        method: 'elicitation/create',
        elicitationMode: 'form',
        schema: { properties: { pin: { type: 'string', required: false } } },
        action: 'accept',
        fields: ['pin'],
        serverMs: 30,
        clientMs: 2000,
      },
    ]);
    assert.deepEqual(rec!.outcome, { kind: 'complete', isError: false });
    assert.doesNotMatch(JSON.stringify(rec), /secret/);
  });

  it('keeps arguments, questions and answers with content on', () => {
    const [rec] = run(true);
    assert.match(JSON.stringify(rec), /answer-secret/);
    assert.match(JSON.stringify(rec), /arg-secret/);
  });
});

describe('audit task line', () => {
  const failed = {
    kind: 'task' as const,
    ts: '2026-12-01T00:00:00.000Z',
    upstream: 'u',
    task: 'h',
    taskKind: 'hosted' as const,
    tool: 't',
    principal: 'p',
    status: 'failed',
    durationMs: 1,
    error: 'no such file: planted-arg',
  };

  it('keeps the error message of a failed task only with --audit-content', () => {
    assert.equal(taskLine(failed, false).error, undefined);
    assert.equal(taskLine(failed, false).status, 'failed');
    assert.equal(taskLine(failed, true).error, 'no such file: planted-arg');
  });
});

describe('audit recorder, reads', () => {
  const read = async (resourceName: ((uri: string) => Promise<{ name: string; undeclared?: true }>) | undefined, content = false) => {
    const out: AuditRecord[] = [];
    const r = new AuditRecorder({ upstream: 'u', clock: testClock(0), content, ...(resourceName ? { resourceName } : {}), sink: (x) => out.push(x) });
    r.onStart({ handle: 'h', method: 'resources/read', params: { uri: 'notes://note/planted-email@example.com' }, mode: 'hold' });
    r.onEnd({ handle: 'h', reason: 'completed', result: { contents: [] } });
    await r.settled();
    return out;
  };

  it('names a read by the template its URI matched, never by the URI', async () => {
    const [rec] = await read(async () => ({ name: 'notes://note/{id}' }));
    assert.equal(rec!.target, 'notes://note/{id}');
    assert.equal(rec!.undeclared, undefined);
    assert.doesNotMatch(JSON.stringify(rec), /planted-email/);
  });

  it('names a read that matched nothing declared (or could not be named) by its scheme, and says so', async () => {
    for (const namer of [undefined, async () => ({ name: 'notes:', undeclared: true as const }), () => Promise.reject(new Error('down'))]) {
      const [rec] = await read(namer);
      assert.equal(rec!.target, 'notes:');
      assert.equal(rec!.undeclared, true);
      assert.doesNotMatch(JSON.stringify(rec), /planted-email/);
    }
  });

  it('keeps the URI in the arguments with --audit-content', async () => {
    const [rec] = await read(async () => ({ name: 'notes://note/{id}' }), true);
    assert.equal(rec!.target, 'notes://note/{id}');
    assert.deepEqual(rec!.arguments, { uri: 'notes://note/planted-email@example.com' });
  });
});
