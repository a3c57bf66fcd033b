// The pure roots decisions: does a call need a roots round, which session key, which capabilities.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerLeavesOtherRoots,
  callRootsAnswer,
  declaresRoots,
  MAX_ROOTS_JSON_CHARS,
  normalizeRoots,
  operatorRootsAnswer,
  planRoots,
  rootsDigest,
  rootsFromAnswers,
  rootsFromClaim,
  rootsProblem,
  rootsServed,
  sessionCapabilities,
  sessionKey,
} from '../../src/protocol/roots.js';

const A = [{ uri: 'file:///a', name: 'A' }];
const B = [{ uri: 'file:///b' }];

describe('planRoots', () => {
  it('asks only a client that declares roots, of a server that asks outside calls', () => {
    assert.deepEqual(planRoots({ declaresRoots: true, serverAsksOutsideCalls: true, known: undefined }), { kind: 'ask' });
    assert.deepEqual(planRoots({ declaresRoots: false, serverAsksOutsideCalls: true, known: undefined }), { kind: 'operator' });
    assert.deepEqual(planRoots({ declaresRoots: true, serverAsksOutsideCalls: false, known: undefined }), { kind: 'operator' });
  });

  it('never asks again once the roots are known (answered, or sealed in requestState)', () => {
    assert.deepEqual(planRoots({ declaresRoots: true, serverAsksOutsideCalls: true, known: A }), { kind: 'client', roots: A });
    assert.deepEqual(planRoots({ declaresRoots: true, serverAsksOutsideCalls: true, known: [] }), { kind: 'client', roots: [] });
  });
});

describe('declaresRoots', () => {
  it('reads the 2026-07-28 capability object', () => {
    assert.equal(declaresRoots({ roots: {} }), true);
    assert.equal(declaresRoots({ roots: { listChanged: true } }), true);
    assert.equal(declaresRoots({}), false);
    assert.equal(declaresRoots(undefined), false);
    assert.equal(declaresRoots({ roots: true } as never), false);
  });
});

describe('sessionKey and rootsDigest', () => {
  it('is the capability key for sessions serving the operator roots', () => {
    assert.equal(sessionKey({ roots: { listChanged: true } }, undefined), 'roots');
    assert.equal(sessionKey({}, undefined), 'none');
  });

  it('adds a digest of the client roots, so sessions with different roots never share', () => {
    const a = sessionKey({ roots: { listChanged: true } }, A);
    const b = sessionKey({ roots: { listChanged: true } }, B);
    assert.match(a, /^roots#roots:[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a, b);
    assert.notEqual(a, sessionKey({ roots: { listChanged: true } }, undefined));
    assert.notEqual(
      sessionKey({ roots: { listChanged: true } }, []),
      sessionKey({ roots: { listChanged: true } }, undefined),
      'empty client roots are not the operator roots',
    );
    assert.equal(a, sessionKey({ roots: { listChanged: true } }, [{ uri: 'file:///a', name: 'A' }]));
  });

  it('digests URIs, names and order', () => {
    assert.notEqual(rootsDigest([{ uri: 'file:///a' }]), rootsDigest([{ uri: 'file:///a', name: 'a' }]));
    assert.notEqual(rootsDigest([...A, ...B]), rootsDigest([...B, ...A]));
    assert.equal(rootsDigest([...A, ...B]), rootsDigest([{ uri: 'file:///a', name: 'A' }, { uri: 'file:///b' }]));
  });
});

describe('sessionCapabilities', () => {
  it('declares roots when the operator has roots, so a client without roots gets them', () => {
    assert.deepEqual(sessionCapabilities({}, A), { roots: { listChanged: true } });
    assert.deepEqual(sessionCapabilities({ sampling: {} }, A), { sampling: {}, roots: { listChanged: true } });
  });

  it('leaves the capabilities alone without operator roots', () => {
    const caps = { sampling: {} };
    assert.equal(sessionCapabilities(caps, []), caps);
    assert.deepEqual(sessionCapabilities({ roots: { listChanged: true } }, A), { roots: { listChanged: true } });
  });
});

describe('rootsServed', () => {
  it('serves the client roots of a bound session, else the operator roots', () => {
    assert.equal(rootsServed(B, A), B);
    assert.equal(rootsServed(undefined, A), A);
    assert.deepEqual(rootsServed([], A), []);
  });
});

describe('operatorRootsAnswer', () => {
  it('answers a mid-call roots/list of a client without roots with the operator roots', () => {
    assert.deepEqual(operatorRootsAnswer('roots/list', false, A), { roots: A });
  });

  it('leaves everything else to the client or to -32021', () => {
    assert.equal(operatorRootsAnswer('roots/list', true, A), undefined);
    assert.equal(operatorRootsAnswer('roots/list', false, []), undefined);
    assert.equal(operatorRootsAnswer('sampling/createMessage', false, A), undefined);
  });
});

describe('callRootsAnswer', () => {
  it('answers a roots/list with the roots the client gave earlier in the call', () => {
    assert.deepEqual(callRootsAnswer('roots/list', { declaresRoots: true, known: A, operatorRoots: B }), { roots: A });
    assert.deepEqual(callRootsAnswer('roots/list', { declaresRoots: true, known: [], operatorRoots: B }), { roots: [] });
  });

  it("asks a client that gave none yet, and gives the operator's to a client without roots", () => {
    assert.equal(callRootsAnswer('roots/list', { declaresRoots: true, known: undefined, operatorRoots: B }), undefined);
    assert.deepEqual(callRootsAnswer('roots/list', { declaresRoots: false, known: undefined, operatorRoots: B }), { roots: B });
    assert.equal(callRootsAnswer('elicitation/create', { declaresRoots: true, known: A, operatorRoots: B }), undefined);
  });
});

describe('rootsFromAnswers', () => {
  it("takes the roots of the call's first roots/list answer, normalized", () => {
    const answers = [
      { method: 'elicitation/create', answer: { action: 'accept' } },
      { method: 'roots/list', answer: { roots: [{ uri: 'file:///a', name: 'A', extra: 1 }] } },
      { method: 'roots/list', answer: { roots: B } },
    ];
    assert.deepEqual(rootsFromAnswers(answers), A);
  });

  it('finds none without a usable answer', () => {
    assert.equal(rootsFromAnswers([{ method: 'roots/list', answer: undefined }]), undefined);
    assert.equal(rootsFromAnswers([{ method: 'roots/list', answer: { roots: 'no' } }]), undefined);
    const huge = Array.from({ length: 200 }, (_, i) => ({ uri: `file:///a-rather-long-directory-name-${i}` }));
    assert.equal(rootsFromAnswers([{ method: 'roots/list', answer: { roots: huge } }]), undefined, 'too large to seal');
  });
});

describe('answerLeavesOtherRoots', () => {
  it("is true when a call's answer names other roots than the session serves", () => {
    assert.equal(answerLeavesOtherRoots({ roots: A }, B), true);
    assert.equal(answerLeavesOtherRoots({ roots: A }, []), true);
    assert.equal(answerLeavesOtherRoots({ roots: [{ uri: 'file:///a', name: 'A' }] }, A), false);
    assert.equal(answerLeavesOtherRoots({ error: 'x' }, A), false);
  });
});

describe('normalizeRoots, rootsFromClaim, rootsProblem', () => {
  it('keeps only uri and name', () => {
    assert.deepEqual(normalizeRoots([{ uri: 'file:///a', name: 'A', _meta: { x: 1 } } as never, { uri: 'file:///b' }]), [...A, ...B]);
  });

  it('reads sealed roots back and refuses anything else', () => {
    assert.deepEqual(rootsFromClaim([...A, ...B]), [...A, ...B]);
    assert.deepEqual(rootsFromClaim([]), []);
    assert.equal(rootsFromClaim('file:///a'), undefined);
    assert.equal(rootsFromClaim([{ uri: 1 }]), undefined);
    assert.equal(rootsFromClaim([{ uri: 'file:///a', name: 2 }]), undefined);
    assert.equal(rootsFromClaim([null]), undefined);
  });

  it('refuses roots too large to seal into requestState', () => {
    assert.equal(rootsProblem(A), undefined);
    const huge = [{ uri: `file:///${'x'.repeat(MAX_ROOTS_JSON_CHARS)}` }];
    assert.match(rootsProblem(huge) ?? '', /too large to carry in requestState/);
  });
});
