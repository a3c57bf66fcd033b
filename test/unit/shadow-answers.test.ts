// Completing the candidate's input_required rounds from the client's answers to the primary, and
// one whole comparison driven against a scripted candidate (plain data in, plain data out).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchAnswers, shapeDigest, unasked, type Exchange } from '../../src/shadow/answers.js';
import { CandidateFailure } from '../../src/shadow/candidate.js';
import type { SideOutcome } from '../../src/shadow/compare.js';
import { eligibility } from '../../src/shadow/eligible.js';
import { compareWithCandidate, MAX_CANDIDATE_ROUNDS, primaryRoundsOf } from '../../src/shadow/run.js';
import { rootsExchange } from '../../src/shadow/tracker.js';

const form = (props: Record<string, unknown>, required: string[] = []) => ({
  mode: 'form',
  message: 'a text that does not matter',
  requestedSchema: { type: 'object', properties: props, required },
});
const elicit = (params: Record<string, unknown>) => ({ method: 'elicitation/create', params });
const NAME = form({ name: { type: 'string', title: 'Your name' } }, ['name']);

describe('matchAnswers', () => {
  const exchanges: Exchange[] = [
    { method: 'elicitation/create', params: NAME, answer: { action: 'accept', content: { name: 'Ada' } } },
    {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 5 },
      answer: { role: 'assistant', content: { type: 'text', text: 'hi' } },
    },
    { method: 'elicitation/create', params: NAME, answer: { action: 'accept', content: { name: 'Bob' } } },
  ];

  it('matches by method and schema shape (not by key, message or title), each answer once, in order', () => {
    const used = new Set<number>();
    const other = form({ name: { type: 'string', description: 'different words' } }, ['name']);
    const first = matchAnswers(
      {
        who: elicit(other),
        model: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Other words' } }], maxTokens: 5 } },
      },
      exchanges,
      used,
    );
    assert.deepEqual(first, { responses: { who: { action: 'accept', content: { name: 'Ada' } }, model: exchanges[1]!.answer }, unmatched: [] });
    const second = matchAnswers({ again: elicit(NAME) }, exchanges, used);
    assert.deepEqual(second.responses, { again: { action: 'accept', content: { name: 'Bob' } } });
    const third = matchAnswers({ more: elicit(NAME) }, exchanges, used);
    assert.equal(third.unmatched.length, 1, 'every fitting answer is used');
    assert.deepEqual(unasked(exchanges, used), []);
  });

  it('leaves a question of another shape unmatched, and reports the primary questions never asked', () => {
    const used = new Set<number>();
    const m = matchAnswers({ details: elicit(form({ name: { type: 'string' }, time: { type: 'string' } }, ['name'])) }, exchanges, used);
    assert.deepEqual(m.responses, {});
    assert.deepEqual(m.unmatched, [
      {
        key: 'details',
        question: {
          method: 'elicitation/create',
          elicitationMode: 'form',
          schema: { properties: { name: { type: 'string', required: true }, time: { type: 'string', required: false } } },
        },
      },
    ]);
    assert.equal(unasked(exchanges, used).length, 3);
    assert.notEqual(shapeDigest('elicitation/create', NAME), shapeDigest('elicitation/create', form({ name: { type: 'string' } })), 'required counts');
  });

  it('matches the answers of a replayed call by their recorded digest', () => {
    const recorded: Exchange[] = [
      { method: 'elicitation/create', digest: shapeDigest('elicitation/create', NAME), answer: { action: 'accept', content: { name: 'Cy' } } },
    ];
    const used = new Set<number>();
    assert.deepEqual(matchAnswers({ n: elicit(NAME) }, recorded, used).responses, { n: { action: 'accept', content: { name: 'Cy' } } });
    assert.deepEqual(unasked(recorded, new Set()), [{ method: 'elicitation/create' }]);
  });

  it('answers any number of roots/list from the roots the client gave in a roots round', () => {
    const roots = rootsExchange([{ uri: 'file:///p', name: 'p' }]);
    const used = new Set<number>();
    assert.deepEqual(matchAnswers({ r1: { method: 'roots/list' } }, roots, used).responses, { r1: { roots: [{ uri: 'file:///p', name: 'p' }] } });
    assert.deepEqual(matchAnswers({ r2: { method: 'roots/list' } }, roots, used).unmatched, []);
    assert.deepEqual(unasked(roots, used), []);
  });

  it('pairs a roots/list the primary asked in a round before the roots the session already had', () => {
    const exchanges = [...rootsExchange([{ uri: 'file:///p' }]), { method: 'roots/list', answer: { roots: [{ uri: 'file:///asked' }] } }];
    const used = new Set<number>();
    assert.deepEqual(matchAnswers({ roots: { method: 'roots/list' } }, exchanges, used).responses, { roots: { roots: [{ uri: 'file:///asked' }] } });
    assert.deepEqual(unasked(exchanges, used), [], 'the asked roots/list was answered');
  });
});

describe('eligibility', () => {
  const shadow = { tools: ['add'], methods: ['tools/list', 'resources/read'] as never };
  it('shadows listed tools and methods only, with their target params', () => {
    assert.deepEqual(eligibility(shadow, 'tools/call', { name: 'add', arguments: { a: 1 }, _meta: { x: 1 } }), {
      kind: 'yes',
      params: { name: 'add', arguments: { a: 1 } },
    });
    assert.deepEqual(eligibility(shadow, 'tools/call', { name: 'delete-all', arguments: {} }), { kind: 'no' });
    assert.deepEqual(eligibility(shadow, 'prompts/list', {}), { kind: 'no' });
    assert.deepEqual(eligibility(shadow, 'resources/read', { uri: 'u://x', _meta: {} }), { kind: 'yes', params: { uri: 'u://x' } });
    assert.deepEqual(eligibility(shadow, 'tools/list', {}), { kind: 'yes', params: {} });
    assert.equal(eligibility(shadow, 'tools/list', { cursor: 'c2' }).kind, 'skip');
  });
});

/** A candidate that answers from a script, recording what it was sent. */
function scripted(replies: Array<SideOutcome | Error>) {
  const sent: Array<Record<string, unknown>> = [];
  return {
    sent,
    async request(_method: string, params: Record<string, unknown>): Promise<SideOutcome> {
      sent.push(params);
      const next = replies.shift() ?? new CandidateFailure('no more replies');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}
const asks = (key: string, params: Record<string, unknown>, state = 's'): SideOutcome => ({
  kind: 'result',
  result: { resultType: 'input_required', inputRequests: { [key]: elicit(params) }, requestState: state },
});
const done = (t: string): SideOutcome => ({ kind: 'result', result: { resultType: 'complete', content: [{ type: 'text', text: t }] } });

describe('compareWithCandidate', () => {
  const request = {
    method: 'tools/call',
    params: { name: 'greet', arguments: {} },
    capabilities: { elicitation: { form: {} } },
    exchanges: [{ method: 'elicitation/create', params: NAME, answer: { action: 'accept', content: { name: 'Ada' } } }],
    primary: done('Hello, Ada!'),
  };
  const never = new AbortController().signal;

  it('completes the rounds with the matched answers and the echoed requestState, then compares', async () => {
    const candidate = scripted([asks('n', NAME, 'state-1'), done('Hello, Ada!')]);
    assert.deepEqual(await compareWithCandidate(request, candidate, [], never), { outcome: 'match', differences: [], truncated: 0, rounds: 1 });
    assert.deepEqual(candidate.sent[1], {
      name: 'greet',
      arguments: {},
      inputResponses: { n: { action: 'accept', content: { name: 'Ada' } } },
      requestState: 'state-1',
    });
  });

  it('reports an answer the candidate never asked for and a different result', async () => {
    const c = await compareWithCandidate(request, scripted([done('Hello, stranger!')]), [], never);
    assert.equal(c.outcome, 'differ');
    assert.deepEqual(
      c.differences.map((d) => `${d.path} ${d.kind}`),
      ['inputRequests missing', 'content[0].text changed'],
    );
  });

  it("matches a candidate's roots question with the proxy's roots round, which counts as a primary round only then", async () => {
    const roots = { ...request, exchanges: rootsExchange([{ uri: 'file:///p' }], true), primary: done('file:///p') };
    const reads = scripted([
      { kind: 'result', result: { resultType: 'input_required', inputRequests: { roots: { method: 'roots/list' } }, requestState: 's' } },
      done('file:///p'),
    ]);
    const c = await compareWithCandidate(roots, reads, [], never);
    assert.deepEqual(c, { outcome: 'match', differences: [], truncated: 0, rounds: 1, rootsRound: 'answered' });
    assert.deepEqual(reads.sent[1]?.['inputResponses'], { roots: { roots: [{ uri: 'file:///p' }] } });
    assert.equal(primaryRoundsOf(0, c), 1);
    // A tool that does not read the roots: the proxy asked them of every call, nothing is missing.
    const ignores = await compareWithCandidate({ ...roots, primary: done('x') }, scripted([done('x')]), [], never);
    assert.deepEqual(ignores, { outcome: 'match', differences: [], truncated: 0, rounds: 0, rootsRound: 'unused' });
    assert.equal(primaryRoundsOf(0, ignores), 0);
    // Roots a replayed call carries from an earlier round are no roots round.
    assert.equal(
      'rootsRound' in (await compareWithCandidate({ ...roots, exchanges: rootsExchange([{ uri: 'file:///p' }]) }, scripted([done('file:///p')]), [], never)),
      false,
    );
  });

  it('counts failures, timeouts and endless rounds as candidate errors', async () => {
    assert.deepEqual(await compareWithCandidate(request, scripted([new CandidateFailure('unreachable: refused')]), [], never), {
      outcome: 'candidate_error',
      differences: [],
      truncated: 0,
      rounds: 0,
      error: 'unreachable: refused',
    });
    const aborted = AbortSignal.abort();
    assert.equal((await compareWithCandidate(request, scripted([new CandidateFailure('aborted')]), [], aborted)).error, 'timed out');
    const loop = { ...request, exchanges: [{ ...request.exchanges[0]!, reusable: true }] };
    const endless = scripted(Array.from({ length: MAX_CANDIDATE_ROUNDS + 1 }, () => asks('n', NAME)));
    assert.match((await compareWithCandidate(loop, endless, [], never)).error ?? '', /more than 8 input_required rounds/);
  });
});
