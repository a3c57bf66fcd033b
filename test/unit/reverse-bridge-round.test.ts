// The reverse bridge's round translation: an input_required round as the legacy requests a
// 2025-era client answers, and the refusals given for what it did not declare.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { legacyRequestOf, legacyResultOf, MAX_QUESTIONS_PER_ROUND, planRound } from '../../src/relay/input-round.js';

const form = { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } } };
const url = { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'https://example.com' } };
const sampling = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
const roots = { method: 'roots/list' };

describe('planRound', () => {
  it('asks every question of a round the client declared, keyed as the server keyed them', () => {
    const plan = planRound({ a: form, b: sampling, c: roots, d: url }, { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} });
    assert.equal(plan.kind, 'ask');
    assert.deepEqual(plan.kind === 'ask' && plan.questions.map((q) => [q.key, q.method]), [
      ['a', 'elicitation/create'],
      ['b', 'sampling/createMessage'],
      ['c', 'roots/list'],
      ['d', 'elicitation/create'],
    ]);
    assert.deepEqual(plan.kind === 'ask' && plan.refused, {});
  });

  it('reads a bare elicitation: {} as form mode only', () => {
    const plan = planRound({ a: form, d: url }, { elicitation: {} });
    assert.deepEqual(plan, {
      kind: 'ask',
      questions: [{ key: 'a', method: 'elicitation/create', params: form.params }],
      refused: { d: { action: 'decline' } },
    });
  });

  it('declines an elicitation the client did not declare', () => {
    assert.deepEqual(planRound({ a: form }, {}), { kind: 'ask', questions: [], refused: { a: { action: 'decline' } } });
    assert.deepEqual(planRound({ a: form }, { elicitation: { url: {} } }), { kind: 'ask', questions: [], refused: { a: { action: 'decline' } } });
  });

  it('ends the request with the missing capability for sampling or roots the client did not declare', () => {
    const s = planRound({ a: form, b: sampling }, { elicitation: {} });
    assert.equal(s.kind, 'missing');
    assert.deepEqual(s.kind === 'missing' && s.capabilities, { sampling: {} });
    const tools = planRound({ b: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5, tools: [] } } }, { sampling: {} });
    assert.deepEqual(tools.kind === 'missing' && tools.capabilities, { sampling: { tools: {} } });
    assert.deepEqual(planRound({ c: roots }, { sampling: {} }).kind, 'missing');
  });

  it('retries at once on a requestState-only round', () => {
    assert.deepEqual(planRound(undefined, {}), { kind: 'ask', questions: [], refused: {} });
  });

  it('refuses a round that is not one: not an object, another method, too many questions', () => {
    assert.equal(planRound([form], {}).kind, 'invalid');
    assert.equal(planRound({ a: { method: 'tools/call', params: {} } }, { elicitation: {} }).kind, 'invalid');
    assert.equal(planRound({ a: 'elicitation/create' }, { elicitation: {} }).kind, 'invalid');
    const many = Object.fromEntries(Array.from({ length: MAX_QUESTIONS_PER_ROUND + 1 }, (_, i) => [`q${i}`, form]));
    assert.equal(planRound(many, { elicitation: {} }).kind, 'invalid');
  });
});

describe('legacyRequestOf and legacyResultOf', () => {
  it('names the elicitationId a 2025-11-25 URL elicitation needs, and keeps other params as they are', () => {
    assert.deepEqual(legacyRequestOf({ key: 'd', method: 'elicitation/create', params: url.params }, 'e-1'), {
      method: 'elicitation/create',
      params: { ...url.params, elicitationId: 'e-1' },
    });
    assert.deepEqual(legacyRequestOf({ key: 'a', method: 'elicitation/create', params: form.params }, 'e-2').params, form.params);
    assert.deepEqual(legacyRequestOf({ key: 'b', method: 'sampling/createMessage', params: sampling.params }, 'e-3').params, sampling.params);
  });

  it('drops resultType from a complete result', () => {
    assert.deepEqual(legacyResultOf({ resultType: 'complete', content: [], isError: false }), { content: [], isError: false });
  });
});
