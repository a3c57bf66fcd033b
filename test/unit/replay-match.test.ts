// Replay matching rules: what counts as "the same question" when a replayed call runs again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nextRecord, recordedAnswer, shapeDigest, withAnswers, type RecordEntry } from '../../src/protocol/replay-match.js';
import { decodeRecord, encodeRecord } from '../../src/state/replay-record.js';
import { StateError } from '../../src/state/seal.js';

const form = (message: string, schema: Record<string, unknown>) => ({ message, requestedSchema: schema });
const nameSchema = { type: 'object', properties: { name: { type: 'string', description: 'your name' } }, required: ['name'] };

describe('shapeDigest', () => {
  it('ignores the wording of a form elicitation: message, titles, descriptions, defaults', () => {
    const a = shapeDigest('elicitation/create', form('What is your name? (asked at 10:00:01)', nameSchema));
    const b = shapeDigest(
      'elicitation/create',
      form('What is your name? (asked at 10:07:44)', {
        type: 'object',
        title: 'Now 10:07',
        properties: { name: { type: 'string', description: 'changed', default: 'x' } },
        required: ['name'],
      }),
    );
    assert.equal(a, b);
  });

  it('keeps property names, types, required, enums and the mode', () => {
    const base = shapeDigest('elicitation/create', form('q', nameSchema));
    const renamed = { ...nameSchema, properties: { who: { type: 'string' } }, required: ['who'] };
    const retyped = { ...nameSchema, properties: { name: { type: 'number' } } };
    const optional = { ...nameSchema, required: [] };
    const enumed = { ...nameSchema, properties: { name: { type: 'string', enum: ['a', 'b'] } } };
    for (const other of [renamed, retyped, optional, enumed]) assert.notEqual(shapeDigest('elicitation/create', form('q', other)), base);
    assert.notEqual(shapeDigest('elicitation/create', { mode: 'url', message: 'q', url: 'https://a.example/x' }), base);
  });

  it('keeps a property that happens to be called title or description', () => {
    const withTitle = { type: 'object', properties: { title: { type: 'string' } } };
    const withDescription = { type: 'object', properties: { description: { type: 'string' } } };
    assert.notEqual(shapeDigest('elicitation/create', form('q', withTitle)), shapeDigest('elicitation/create', form('q', withDescription)));
  });

  it('compares URL elicitations by origin and path, not by per-run query or id', () => {
    const a = shapeDigest('elicitation/create', { mode: 'url', message: 'a', url: 'https://login.example/auth?state=1', elicitationId: '1' });
    const b = shapeDigest('elicitation/create', { mode: 'url', message: 'b', url: 'https://login.example/auth?state=2', elicitationId: '2' });
    const c = shapeDigest('elicitation/create', { mode: 'url', message: 'a', url: 'https://other.example/auth?state=1' });
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('compares sampling by its parameters, not by the text of the messages', () => {
    const s = (text: string, extra: Record<string, unknown> = {}) => ({
      messages: [{ role: 'user', content: { type: 'text', text } }],
      maxTokens: 10,
      systemPrompt: `today is ${text}`,
      ...extra,
    });
    const base = shapeDigest('sampling/createMessage', s('monday'));
    assert.equal(shapeDigest('sampling/createMessage', s('tuesday')), base);
    assert.notEqual(shapeDigest('sampling/createMessage', s('monday', { maxTokens: 11 })), base);
    assert.notEqual(shapeDigest('sampling/createMessage', s('monday', { temperature: 0.2 })), base);
    assert.notEqual(shapeDigest('sampling/createMessage', { ...s('x'), messages: [{ role: 'assistant', content: { type: 'text', text: 'x' } }] }), base);
    assert.notEqual(shapeDigest('sampling/createMessage', s('x', { tools: [{ name: 't', inputSchema: { type: 'object' } }] })), base);
  });

  it('gives roots/list one shape, and different methods different shapes', () => {
    assert.equal(shapeDigest('roots/list', undefined), shapeDigest('roots/list', { _meta: { x: 1 } }));
    assert.notEqual(shapeDigest('roots/list', undefined), shapeDigest('elicitation/create', undefined));
  });
});

describe('recordedAnswer', () => {
  const d = shapeDigest('elicitation/create', form('q', nameSchema));
  const record: RecordEntry[] = [
    { n: 1, m: 'elicitation/create', d, a: { action: 'accept', content: { name: 'Ada' } } },
    { n: 2, m: 'elicitation/create', d, q: { method: 'elicitation/create', params: form('q', nameSchema) } },
  ];

  it('matches by position, method and shape', () => {
    assert.deepEqual(recordedAnswer(record, 1, 'elicitation/create', d), { action: 'accept', content: { name: 'Ada' } });
  });

  it('does not match another position, another method, another shape or an unanswered question', () => {
    assert.equal(recordedAnswer(record, 3, 'elicitation/create', d), undefined);
    assert.equal(recordedAnswer(record, 1, 'sampling/createMessage', d), undefined);
    assert.equal(recordedAnswer(record, 1, 'elicitation/create', 'other'), undefined);
    assert.equal(recordedAnswer(record, 2, 'elicitation/create', d), undefined);
  });
});

describe('nextRecord and withAnswers', () => {
  const a1: RecordEntry = { n: 1, m: 'roots/list', d: 'r', a: { roots: [] } };
  const a3: RecordEntry = { n: 3, m: 'roots/list', d: 'r', a: { roots: [] } };
  const q2: RecordEntry = { n: 2, m: 'roots/list', d: 'r2', q: { method: 'roots/list' } };

  it('keeps what the run matched and the new questions in position order, and drops the rest', () => {
    assert.deepEqual(nextRecord([a3, a1], [q2]), [a1, q2, a3]);
    assert.deepEqual(nextRecord([a1], [q2]), [a1, q2]);
  });

  it('turns answered questions into digest + answer and leaves the others open', () => {
    const q4: RecordEntry = { n: 4, m: 'roots/list', d: 'r', q: { method: 'roots/list' } };
    const filled = withAnswers([a1, q2, q4], new Map([[2, { roots: [{ uri: 'file:///x' }] }]]));
    assert.deepEqual(filled, [a1, { n: 2, m: 'roots/list', d: 'r2', a: { roots: [{ uri: 'file:///x' }] } }, q4]);
  });
});

describe('replay record codec', () => {
  it('round-trips and compresses repetitive records', () => {
    const record: RecordEntry[] = Array.from({ length: 20 }, (_, i) => ({
      n: i + 1,
      m: 'elicitation/create',
      d: 'abcdefgh',
      a: { action: 'accept', content: { name: 'Ada Lovelace' } },
    }));
    const encoded = encodeRecord(record);
    assert.deepEqual(decodeRecord(encoded), record);
    assert.ok(encoded.length < JSON.stringify(record).length / 3, `${encoded.length} vs ${JSON.stringify(record).length}`);
  });

  it('refuses what is not a record', () => {
    for (const bad of [
      '',
      'not-deflate',
      encodeRecord([{ n: 1, m: 'tools/call', d: 'x', a: {} } as never]),
      encodeRecord([{ n: 1, m: 'roots/list', d: 'x' } as never]),
    ]) {
      assert.throws(
        () => decodeRecord(bad),
        (err: unknown) => err instanceof StateError && err.reason === 'malformed',
        bad,
      );
    }
  });
});
