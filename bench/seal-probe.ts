// CPU per seal and per open of each kind of sealed token (a held call's requestState, a replayed
// call's with its record of questions, a task id, a task record), in process: no I/O, nothing else
// on the path. Not part of `npm run bench`; run it by hand when working on state/:
//
//   npm run build && node dist/bench/seal-probe.js [--iterations N] [--repeats R]
//
// Each repeat times every kind once (seal, then open of tokens sealed beforehand); the figures are
// the median over repeats with the min–max range.
import { holdClaims, replayClaims, taskClaims } from '../src/state/claims.js';
import { encodeRecord } from '../src/state/replay-record.js';
import { createSealer, type Sealer } from '../src/state/seal.js';
import { fingerprint } from '../src/state/fingerprint.js';
import { fmt, summarize } from './lib/stats.js';
import { TEST_STATE_KEY } from './lib/procs.js';

const argv = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = argv.indexOf(name);
  return i === -1 ? def : Number(argv[i + 1]);
};
const iterations = opt('--iterations', 20_000);
const repeats = opt('--repeats', 5);

const KEY = new Uint8Array(Buffer.from(TEST_STATE_KEY, 'base64url'));
const INSTANCE = 'b0c8a3a6-5a2e-4e0f-8f64-0d3c3f1e2a77/default';
const HANDLE = '6f1c2b7e-3c1a-4c1e-9d0a-2b8e4f0c9a11';
const fp = fingerprint({ method: 'tools/call', target: 'ask-name', args: {} });
const question = (n: number) => ({
  method: 'elicitation/create' as const,
  params: { message: `Question ${n}: what is your name?`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
});
// Two questions answered and a third open: what a replayed call's third round seals.
const record = encodeRecord([
  { n: 0, m: 'elicitation/create', d: 'd0', a: { action: 'accept', content: { name: 'Ada' } } },
  { n: 1, m: 'elicitation/create', d: 'd1', a: { action: 'accept', content: { name: 'Grace' } } },
  { n: 2, m: 'elicitation/create', d: 'd2', q: question(2) },
]);
const TASK_RECORD = { h: HANDLE, o: INSTANCE, e: Date.now() + 600_000, view: { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } } };

interface Kind {
  name: string;
  seal(sealer: Sealer, i: number): Promise<string>;
  open(sealer: Sealer, token: string): Promise<unknown>;
}

const exp = Date.now() + 600_000;
const expectHeld = { instance: INSTANCE, principal: 'anonymous', fingerprint: fp };
const expectReplay = { ...expectHeld, upstream: 'default' };
const KINDS: Kind[] = [
  {
    name: 'held call',
    seal: (s, i) => s.seal(holdClaims({ handle: HANDLE, instance: INSTANCE, round: (i % 9) + 1, principal: 'anonymous', fingerprint: fp }), exp),
    open: (s, t) => s.open(t, expectHeld),
  },
  {
    name: 'replayed call (3 questions)',
    seal: (s, i) =>
      s.seal(
        replayClaims({
          handle: HANDLE,
          instance: INSTANCE,
          round: (i % 9) + 1,
          principal: 'anonymous',
          fingerprint: fp,
          upstream: 'default',
          record,
          legacyVersion: '2025-11-25',
          expiresAt: exp,
          callId: HANDLE,
        }),
        exp,
      ),
    open: (s, t) => s.open(t, expectReplay),
  },
  {
    name: 'task id',
    seal: (s) => s.seal(taskClaims({ handle: HANDLE, instance: INSTANCE, principal: 'anonymous', upstream: 'default' }), exp),
    open: (s, t) => s.inspect(t),
  },
  { name: 'task record', seal: (s) => s.sealRecord(TASK_RECORD), open: (s, t) => s.openRecord(t) },
];

/** CPU microseconds (user + system) per call of `fn`, after a warm-up: on a shared machine, wall time would count the waits for a core. */
async function perOpUs(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(500, n); i++) await fn(i);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

async function main(): Promise<void> {
  const sealer = createSealer(KEY);
  const figures = KINDS.map(() => ({ seal: [] as number[], open: [] as number[], chars: 0 }));
  for (let r = 0; r < repeats; r++) {
    for (const [k, kind] of KINDS.entries()) {
      const tokens = await Promise.all(Array.from({ length: 64 }, (_, i) => kind.seal(sealer, i)));
      figures[k]!.chars = tokens[0]!.length;
      figures[k]!.seal.push(await perOpUs(iterations, (i) => kind.seal(sealer, i)));
      figures[k]!.open.push(await perOpUs(iterations, (i) => kind.open(sealer, tokens[i % tokens.length]!)));
    }
  }
  console.log(`${iterations} iterations x ${repeats} repeats, Node ${process.version}: CPU µs per operation, median (min–max)`);
  console.log('| token | chars | seal µs | open µs | seal + open µs |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [k, kind] of KINDS.entries()) {
    const f = figures[k]!;
    const both = f.seal.map((s, i) => s + f.open[i]!);
    console.log(`| ${kind.name} | ${f.chars} | ${fmt(summarize(f.seal), 1)} | ${fmt(summarize(f.open), 1)} | ${fmt(summarize(both), 1)} |`);
  }
}

await main();
