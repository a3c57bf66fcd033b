// Case 2's in-process part: what sealing, unsealing and the Bridge itself cost per round, without
// the wire. The Bridge (dist/src) is driven by the unit tests' fake in-memory legacy session.
import { performance } from 'node:perf_hooks';
import { Bridge } from '../../src/bridge/bridge.js';
import { holdClaims } from '../../src/state/claims.js';
import { createSealer } from '../../src/state/seal.js';
import { MemoryLedger } from '../../src/state/ledger.js';
import { fingerprint } from '../../src/state/fingerprint.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { systemClock } from '../../src/clock.js';
import { FakeSession, type FakeServer } from '../../test/support/fake-session.js';
import { ALL_CAPS, type Json } from '../lib/http.js';
import { TEST_STATE_KEY } from '../lib/procs.js';

export const ANSWER = { action: 'accept', content: { name: 'Ada' } };
const KEY = new Uint8Array(Buffer.from(TEST_STATE_KEY, 'base64url'));

/** Median ms per iteration of `fn` over `n` iterations, after a warm-up. */
async function perOp(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, n); i++) await fn(i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (performance.now() - t0) / n;
}

export async function sealCosts(n: number): Promise<{ seal: number; unseal: number; tokenChars: number }> {
  const sealer = createSealer(KEY);
  const fp = fingerprint({ method: 'tools/call', target: 'ask-name', args: {} });
  // The instance claim has the shape the proxy uses: its instance id, a slash, the upstream name.
  const claims = (i: number) =>
    holdClaims({
      handle: '6f1c2b7e-3c1a-4c1e-9d0a-2b8e4f0c9a11',
      instance: 'b0c8a3a6-5a2e-4e0f-8f64-0d3c3f1e2a77/default',
      round: (i % 9) + 1,
      principal: 'anonymous',
      fingerprint: fp,
    });
  const expect = { instance: claims(0).i, principal: 'anonymous', fingerprint: fp };
  const exp = Date.now() + 600_000;
  const tokens = await Promise.all(Array.from({ length: 64 }, (_, i) => sealer.seal(claims(i), exp)));
  const seal = await perOp(n, (i) => sealer.seal(claims(i), exp));
  const unseal = await perOp(n, (i) => sealer.open(tokens[i % tokens.length], expect));
  return { seal, unseal, tokenChars: tokens[0]!.length };
}

/** The in-memory legacy server of the unit tests: `ask` elicits once, anything else answers at once. */
const benchServer: FakeServer = (call, session) => {
  if (call.params?.['name'] !== 'ask') return call.resolve({ content: [{ type: 'text', text: 'echo: hello' }] });
  const question = { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } };
  session
    .ask('elicitation/create', question)
    .answer.then((r) => call.resolve({ content: [{ type: 'text', text: `Hello, ${String((r['content'] as Json)?.['name'])}!` }] }), call.reject);
};

export async function bridgeCosts(n: number): Promise<{ echo: number; ask: number }> {
  const session = new FakeSession({}, benchServer);
  const lease = { session, release() {}, discard() {}, markWaiting: () => true, markParked() {}, markActive: async () => {} };
  const bridge = new Bridge({
    sessions: { acquire: async () => lease, asksRootsOutsideCalls: () => false, operatorRoots: () => [] },
    sealer: createSealer(KEY),
    instance: 'bench',
    upstream: 'bench',
    ledger: new MemoryLedger(systemClock),
    limits: {
      interactionTtlMs: 600_000,
      gatherWindowMs: 0,
      callTimeoutMs: 600_000,
      maxCallsPerPrincipal: 100_000,
      maxInteractionsPerPrincipal: 100_000,
      maxStateBytes: 16_384,
      suspend: { default: 'hold', replay: [], hold: [] },
    },
    log: createLogger('warn'),
    clock: systemClock,
  });
  const signal = new AbortController().signal;
  const front = (name: string, extra: Partial<Parameters<Bridge['call']>[0]> = {}) => ({
    method: 'tools/call' as const,
    params: { name, arguments: {} },
    identity: { method: 'tools/call', target: name, args: {} },
    capabilities: ALL_CAPS,
    principal: 'anonymous',
    sink: { notify: async () => {} },
    signal,
    ...extra,
  });
  try {
    const echo = await perOp(n, () => bridge.call(front('echo')));
    const ask = await perOp(n, async () => {
      const r = await bridge.call(front('ask'));
      const key = Object.keys(r['inputRequests'] as Json)[0]!;
      const done = await bridge.call(front('ask', { requestState: r['requestState'] as string, inputResponses: { [key]: ANSWER } }));
      if (!Array.isArray(done['content'])) throw new Error(`bridge round did not complete: ${JSON.stringify(done)}`);
    });
    return { echo, ask };
  } finally {
    await bridge.close();
  }
}
