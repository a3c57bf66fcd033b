// --audit end to end: the proxy over the legacy fixture writes one JSON line per finished
// interactive call; a secret the user typed never reaches the file without --audit-content.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/audit/record.js';
import { FIXTURE, startProxy } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';

const SECRET = 'planted-secret-answer-4711';
const ARG_SECRET = 'planted-secret-argument-0815';

/** Runs ask-name (answered with the secret), ask-all, a declined ask-name and echo, then stops the proxy. */
async function session(args: string[]): Promise<AuditRecord[]> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  const file = join(dir, 'audit.jsonl');
  const proxy = await startProxy([...args.map((a) => a.replace('$FILE', file).replace('$DIR', dir)), '--', process.execPath, FIXTURE]);
  try {
    const call = (name: string, extra: Record<string, unknown> = {}) =>
      rpc(proxy.url, 'tools/call', { name, arguments: { greeting: ARG_SECRET }, ...extra }, { caps: ALL_CAPS });
    const first = inputRequired(await call('ask-name'));
    const done = await call('ask-name', {
      requestState: first.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: SECRET } } },
    });
    assert.match(JSON.stringify(done.body.result), new RegExp(SECRET), 'the answer reached the legacy server');
    const all = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-all', arguments: {} }, { caps: ALL_CAPS }));
    const answers = {
      'elicitation-1': { action: 'accept', content: { color: 'blue' } },
      'sampling-2': { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' },
      'roots-3': { roots: [{ uri: 'file:///r' }] },
    };
    assert.deepEqual(Object.keys(all.inputRequests).sort(), Object.keys(answers).sort());
    await rpc(proxy.url, 'tools/call', { name: 'ask-all', arguments: {}, requestState: all.requestState, inputResponses: answers }, { caps: ALL_CAPS });
    const declined = inputRequired(await call('ask-name'));
    await call('ask-name', { requestState: declined.requestState, inputResponses: { 'elicitation-1': { action: 'decline' } } });
    await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
  } finally {
    // The records are flushed on shutdown.
    assert.equal(await proxy.stop('SIGTERM'), 0);
  }
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as AuditRecord);
}

describe('--audit', () => {
  it('records each finished call with what was asked, the action and timings, and no user content', async () => {
    const records = await session(['--audit', '$FILE']);
    assert.deepEqual(
      records.map((r) => [r.target, r.rounds, r.outcome.kind]),
      [
        ['ask-name', 1, 'complete'],
        ['ask-all', 1, 'complete'],
        ['ask-name', 1, 'complete'],
        ['echo', 0, 'complete'],
      ],
    );
    const [named, all, declined] = records;
    assert.equal(named!.upstream, 'default');
    assert.equal(named!.method, 'tools/call');
    assert.equal(named!.mode, 'hold');
    const ask = named!.requests[0]!;
    assert.deepEqual([ask.key, ask.method, ask.elicitationMode, ask.action, ask.fields], ['elicitation-1', 'elicitation/create', 'form', 'accept', ['name']]);
    assert.deepEqual(ask.schema, { properties: { name: { type: 'string', required: true } } });
    assert.ok(ask.clientMs! >= 0 && ask.serverMs >= 0);
    assert.deepEqual(
      all!.requests.map((r) => [r.method, r.action]),
      [
        ['elicitation/create', 'accept'],
        ['sampling/createMessage', 'accept'],
        ['roots/list', 'accept'],
      ],
    );
    assert.equal(all!.requests[1]!.sampling!.maxTokens, 10);
    assert.equal(declined!.requests[0]!.action, 'decline');
    const text = JSON.stringify(records);
    assert.doesNotMatch(text, new RegExp(SECRET), 'the secret answer is not in the audit');
    assert.doesNotMatch(text, new RegExp(ARG_SECRET), 'the arguments are not in the audit');
    assert.doesNotMatch(text, /Say hi|What is your name/, 'neither the sampling messages nor the question texts');
  });

  it('keeps the content with --audit-content', async () => {
    const text = JSON.stringify(await session(['--audit', '$FILE', '--audit-content']));
    assert.match(text, new RegExp(SECRET));
    assert.match(text, new RegExp(ARG_SECRET));
  });

  it('takes the file from `audit: {file}` in the configuration file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-cfg-'));
    const config = join(dir, 'proxy.yaml');
    writeFileSync(
      config,
      `audit: {file: ${join(dir, 'from-config.jsonl')}}\nupstreams:\n  only:\n    stdio: {command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}]}\n`,
    );
    const proxy = await startProxy(['--config', config]);
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ALL_CAPS }));
    await rpc(
      proxy.url,
      'tools/call',
      { name: 'ask-name', arguments: {}, requestState: first.requestState, inputResponses: { 'elicitation-1': { action: 'cancel' } } },
      { caps: ALL_CAPS },
    );
    assert.equal(await proxy.stop('SIGTERM'), 0);
    const [rec] = readFileSync(join(dir, 'from-config.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    assert.equal(rec!.upstream, 'only');
    assert.equal(rec!.requests[0]!.action, 'cancel');
  });
});
