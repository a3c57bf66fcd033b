import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adaptAnswer, partitionAnswers, type AskedInput, type Partition } from '../../src/protocol/answers.js';

const ELICIT: AskedInput = { key: 'elicitation-1', method: 'elicitation/create' };
const SAMPLE: AskedInput = { key: 'sampling-2', method: 'sampling/createMessage' };
const ROOTS: AskedInput = { key: 'roots-3', method: 'roots/list' };
const ALL = [ELICIT, SAMPLE, ROOTS];

const validElicit = { action: 'accept', content: { name: 'Ada', age: 36, ok: true, tags: ['a', 'b'] } };
const validSample = { model: 'm-1', role: 'assistant', content: { type: 'text', text: 'hello' }, stopReason: 'endTurn' };
const validRoots = { roots: [{ uri: 'file:///work', name: 'work' }] };

function ok(p: Partition): { answers: Map<string, Record<string, unknown>>; missing: string[] } {
  if (!p.ok) assert.fail(`expected ok, got error: ${p.message}`);
  return p;
}

function failed(p: Partition): { message: string; key?: string } {
  if (p.ok) assert.fail('expected an error');
  return p;
}

describe('partitionAnswers', () => {
  describe('inputResponses that is not an object', () => {
    for (const bad of [null, 'x', 42, true, [], [validElicit]]) {
      it(`rejects ${JSON.stringify(bad)}`, () => {
        const r = failed(partitionAnswers(ALL, bad));
        assert.equal(r.message, 'inputResponses must be an object keyed by the inputRequests keys');
        assert.equal(r.key, undefined);
      });
    }
  });

  it('treats absent inputResponses as everything missing', () => {
    const r = ok(partitionAnswers(ALL, undefined));
    assert.equal(r.answers.size, 0);
    assert.deepEqual(r.missing, ['elicitation-1', 'sampling-2', 'roots-3']);
  });

  it('accepts a full set of valid answers', () => {
    const r = ok(partitionAnswers(ALL, { 'elicitation-1': validElicit, 'sampling-2': validSample, 'roots-3': validRoots }));
    assert.deepEqual(r.missing, []);
    assert.deepEqual([...r.answers.keys()], ['elicitation-1', 'sampling-2', 'roots-3']);
    assert.deepEqual(r.answers.get('elicitation-1'), validElicit);
    assert.deepEqual(r.answers.get('sampling-2'), validSample);
    assert.deepEqual(r.answers.get('roots-3'), validRoots);
  });

  it('reports missing keys in asked order and is not an error', () => {
    const r = ok(partitionAnswers(ALL, { 'sampling-2': validSample }));
    assert.deepEqual(r.missing, ['elicitation-1', 'roots-3']);
    assert.deepEqual([...r.answers.keys()], ['sampling-2']);
  });

  it('ignores extra keys', () => {
    const r = ok(partitionAnswers([ELICIT], { 'elicitation-1': validElicit, 'elicitation-9': 'garbage', other: { action: 'nope' } }));
    assert.deepEqual([...r.answers.keys()], ['elicitation-1']);
    assert.deepEqual(r.missing, []);
  });

  it('accepts an empty object with nothing asked', () => {
    const r = ok(partitionAnswers([], {}));
    assert.equal(r.answers.size, 0);
    assert.deepEqual(r.missing, []);
  });

  it('does not count inherited properties as answers', () => {
    const responses = Object.create({ 'elicitation-1': validElicit }) as object;
    const r = ok(partitionAnswers([ELICIT], responses));
    assert.deepEqual(r.missing, ['elicitation-1']);
  });

  describe('dropped keys', () => {
    it('is an error naming the key and the expected result type', () => {
      const r = failed(partitionAnswers(ALL, { 'elicitation-1': validElicit }, ['sampling-2']));
      assert.equal(r.key, 'sampling-2');
      assert.equal(r.message, "inputResponses['sampling-2'] is not a bare CreateMessageResult object");
    });

    it('names the result type per method', () => {
      assert.match(failed(partitionAnswers([ELICIT], {}, ['elicitation-1'])).message, /not a bare ElicitResult object/);
      assert.match(failed(partitionAnswers([ROOTS], {}, ['roots-3'])).message, /not a bare ListRootsResult object/);
    });

    it('ignores dropped keys that were not asked', () => {
      const r = ok(partitionAnswers([ELICIT], { 'elicitation-1': validElicit }, ['sampling-7', 'whatever']));
      assert.deepEqual([...r.answers.keys()], ['elicitation-1']);
    });
  });

  describe('answers of the wrong shape', () => {
    it('elicitation: bad action', () => {
      const r = failed(partitionAnswers(ALL, { 'elicitation-1': { action: 'maybe' } }));
      assert.equal(r.key, 'elicitation-1');
      assert.match(r.message, /^inputResponses\['elicitation-1'\] is not a valid ElicitResult at 'action': /);
    });

    it('elicitation: missing action', () => {
      const r = failed(partitionAnswers([ELICIT], { 'elicitation-1': { content: {} } }));
      assert.equal(r.key, 'elicitation-1');
      assert.match(r.message, /is not a valid ElicitResult at 'action'/);
    });

    it('elicitation: content values of the wrong type', () => {
      const r = failed(partitionAnswers([ELICIT], { 'elicitation-1': { action: 'accept', content: { nested: { a: 1 } } } }));
      assert.equal(r.key, 'elicitation-1');
      assert.match(r.message, /is not a valid ElicitResult at 'content\.nested'/);
    });

    it('elicitation: not an object at all', () => {
      for (const bad of ['accept', 1, null, []]) {
        const r = failed(partitionAnswers([ELICIT], { 'elicitation-1': bad }));
        assert.equal(r.key, 'elicitation-1');
        assert.match(r.message, /^inputResponses\['elicitation-1'\] is not a valid ElicitResult/);
      }
    });

    it('sampling: missing model', () => {
      const { model: _model, ...noModel } = validSample;
      const r = failed(partitionAnswers([SAMPLE], { 'sampling-2': noModel }));
      assert.equal(r.key, 'sampling-2');
      assert.match(r.message, /^inputResponses\['sampling-2'\] is not a valid CreateMessageResult at 'model': /);
    });

    it('sampling: bad role', () => {
      const r = failed(partitionAnswers([SAMPLE], { 'sampling-2': { ...validSample, role: 'system' } }));
      assert.equal(r.key, 'sampling-2');
      assert.match(r.message, /is not a valid CreateMessageResult at 'role'/);
    });

    it('sampling: bad content block', () => {
      const r = failed(partitionAnswers([SAMPLE], { 'sampling-2': { ...validSample, content: { type: 'video' } } }));
      assert.equal(r.key, 'sampling-2');
      assert.match(r.message, /is not a valid CreateMessageResult/);
      assert.match(r.message, /content/);
    });

    it('roots: roots not an array', () => {
      const r = failed(partitionAnswers([ROOTS], { 'roots-3': { roots: 'file:///x' } }));
      assert.equal(r.key, 'roots-3');
      assert.match(r.message, /^inputResponses\['roots-3'\] is not a valid ListRootsResult at 'roots': /);
    });

    it('roots: a root that is not a file:// URI', () => {
      const r = failed(partitionAnswers([ROOTS], { 'roots-3': { roots: [{ uri: 'file:///ok' }, { uri: 'https://example.com' }] } }));
      assert.equal(r.key, 'roots-3');
      assert.match(r.message, /is not a valid ListRootsResult at 'roots\.1\.uri'/);
    });

    it('reports the first bad key in asked order even when others are valid or missing', () => {
      const r = failed(partitionAnswers(ALL, { 'sampling-2': { nope: 1 }, 'roots-3': { roots: 1 } }));
      assert.equal(r.key, 'sampling-2');
    });

    it('a dropped key earlier in asked order wins over a later bad shape', () => {
      const r = failed(partitionAnswers(ALL, { 'roots-3': { roots: 1 } }, ['elicitation-1']));
      assert.equal(r.key, 'elicitation-1');
      assert.match(r.message, /not a bare ElicitResult/);
    });
  });

  describe('valid variants', () => {
    it('elicitation decline/cancel without content, and null content', () => {
      for (const answer of [{ action: 'decline' }, { action: 'cancel' }, { action: 'cancel', content: null }]) {
        ok(partitionAnswers([ELICIT], { 'elicitation-1': answer }));
      }
    });

    it('sampling with array content and tool use', () => {
      const answer = {
        model: 'm',
        role: 'assistant',
        stopReason: 'toolUse',
        content: [
          { type: 'text', text: 'calling' },
          { type: 'tool_use', id: 'call-1', name: 'lookup', input: { q: 'x' } },
        ],
      };
      const r = ok(partitionAnswers([SAMPLE], { 'sampling-2': answer }));
      assert.deepEqual(r.answers.get('sampling-2'), answer);
    });

    it('result _meta and unknown extra fields are allowed', () => {
      ok(partitionAnswers([ROOTS], { 'roots-3': { roots: [], _meta: { vendor: 1 }, extra: true } }));
    });
  });
});

describe('adaptAnswer', () => {
  const arrayAnswer = { model: 'm', role: 'assistant', content: [{ type: 'text', text: 'one' }], stopReason: 'endTurn' };

  it('passes non-sampling answers through for any version', () => {
    const e = { action: 'accept', content: { a: 'b' } };
    assert.deepEqual(adaptAnswer('elicitation/create', e, '2024-11-05'), { ok: true, result: e });
    assert.deepEqual(adaptAnswer('roots/list', validRoots, '2025-06-18'), { ok: true, result: validRoots });
  });

  it('passes sampling answers through at 2025-11-25 and later', () => {
    const two = {
      ...arrayAnswer,
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    };
    for (const v of ['2025-11-25', '2026-07-28']) {
      assert.deepEqual(adaptAnswer('sampling/createMessage', arrayAnswer, v), { ok: true, result: arrayAnswer });
      assert.deepEqual(adaptAnswer('sampling/createMessage', two, v), { ok: true, result: two });
    }
  });

  it('unwraps a one-block content array before 2025-11-25, keeping other fields', () => {
    for (const v of ['2025-06-18', '2025-03-26', '2024-11-05']) {
      const r = adaptAnswer('sampling/createMessage', arrayAnswer, v);
      assert.deepEqual(r, { ok: true, result: { model: 'm', role: 'assistant', content: { type: 'text', text: 'one' }, stopReason: 'endTurn' } });
    }
  });

  it('does not mutate the answer it adapts', () => {
    const answer = structuredClone(arrayAnswer);
    adaptAnswer('sampling/createMessage', answer, '2025-06-18');
    assert.deepEqual(answer, arrayAnswer);
  });

  it('leaves single-block (non-array) content alone before 2025-11-25', () => {
    assert.deepEqual(adaptAnswer('sampling/createMessage', validSample, '2025-06-18'), { ok: true, result: validSample });
  });

  it('fails on an empty or multi-block content array before 2025-11-25', () => {
    const empty = adaptAnswer('sampling/createMessage', { ...arrayAnswer, content: [] }, '2025-06-18');
    assert.deepEqual(empty, {
      ok: false,
      message: 'the legacy server speaks 2025-06-18, which takes exactly one sampling content block; got 0',
    });
    const two = adaptAnswer(
      'sampling/createMessage',
      {
        ...arrayAnswer,
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      '2024-11-05',
    );
    assert.equal(two.ok, false);
    assert.match((two as { message: string }).message, /2024-11-05.*exactly one.*got 2/);
  });

  it('refuses tool use before 2025-11-25', () => {
    const toolUse = { type: 'tool_use', id: 'c1', name: 'lookup', input: {} };
    const inArray = adaptAnswer('sampling/createMessage', { model: 'm', role: 'assistant', stopReason: 'toolUse', content: [toolUse] }, '2025-06-18');
    assert.equal(inArray.ok, false);
    const bare = adaptAnswer('sampling/createMessage', { model: 'm', role: 'assistant', stopReason: 'toolUse', content: toolUse }, '2025-06-18');
    assert.equal(bare.ok, false);
  });
});
