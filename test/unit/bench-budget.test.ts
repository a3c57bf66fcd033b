// The benchmark's pure pieces behind the budgets: judging paired ratios, CPU time from
// /proc/PID/stat, and the floor bridge's requestState (a real JWE that jose opens too).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { compactDecrypt, CompactEncrypt } from 'jose';
import { budgetLabel, cpuUsPerOp, judge } from '../../bench/lib/budget.js';
import { cpuMsFromStat } from '../../bench/lib/cpu.js';
import { openState, sealState } from '../../bench/floor-state.js';

describe('judge', () => {
  it('judges a cost on the median of its ratios, not on one repeat', () => {
    const v = judge([2.4, 3.9, 2.2], { atMost: 2.5 });
    assert.equal(v.ratio.median, 2.4);
    assert.equal(v.ratio.min, 2.2);
    assert.equal(v.ratio.max, 3.9);
    assert.equal(v.met, true);
    assert.equal(judge([2.6, 2.4, 2.7], { atMost: 2.5 }).met, false);
    assert.equal(judge([2.5], { atMost: 2.5 }).met, true);
  });

  it('judges a speed from below', () => {
    assert.equal(judge([0.5, 0.7, 0.65], { atLeast: 0.6 }).met, true);
    assert.equal(judge([0.5, 0.7, 0.55], { atLeast: 0.6 }).met, false);
  });

  it('refuses no ratios or ratios that are not numbers (a window where nothing completed)', () => {
    assert.throws(() => judge([], { atMost: 2 }), /finite ratios/);
    assert.throws(() => judge([1, Number.NaN], { atMost: 2 }), /finite ratios/);
    assert.throws(() => judge([Number.POSITIVE_INFINITY], { atLeast: 1 }), /finite ratios/);
  });

  it('labels budgets', () => {
    assert.equal(budgetLabel({ atMost: 2.5 }), '≤ 2.5×');
    assert.equal(budgetLabel({ atLeast: 0.6 }), '≥ 0.6×');
  });
});

describe('CPU per operation', () => {
  it('reads utime + stime of the process itself, whatever its command name holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
    const stat = '4242 (node) x (y) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 56 7000 8000 20 0 11 0';
    assert.equal(cpuMsFromStat(stat), (1234 + 56) * 10);
    assert.throws(() => cpuMsFromStat('garbage'), /stat/);
  });

  it('divides by the operations, NaN for none', () => {
    assert.equal(cpuUsPerOp(1000, 1500, 2000), 250);
    assert.ok(Number.isNaN(cpuUsPerOp(1000, 1500, 0)));
  });
});

describe("the floor bridge's requestState", () => {
  const key = randomBytes(32);
  const claims = { s: 'handle-1', f: 'fingerprint', e: 1_900_000_000_000 };

  it('opens what it sealed, and each seal is fresh', () => {
    const a = sealState(key, claims);
    assert.deepEqual(openState(key, a), claims);
    assert.notEqual(sealState(key, claims), a);
  });

  it('is a compact dir + A256GCM JWE that jose opens, and opens one jose sealed', async () => {
    const token = sealState(key, claims);
    const { plaintext, protectedHeader } = await compactDecrypt(token, key);
    assert.deepEqual(protectedHeader, { alg: 'dir', enc: 'A256GCM' });
    assert.deepEqual(JSON.parse(new TextDecoder().decode(plaintext)), claims);
    const fromJose = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(key);
    assert.deepEqual(openState(key, fromJose), claims);
  });

  it('opens nothing altered, foreign, malformed or oversized', () => {
    const token = sealState(key, claims);
    const parts = token.split('.');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const i of [0, 2, 3, 4]) assert.equal(openState(key, parts.map((p, j) => (j === i ? flip(p) : p)).join('.')), undefined, `part ${i} altered`);
    assert.equal(openState(randomBytes(32), token), undefined);
    for (const bad of [undefined, 42, '', 'a.b.c', `${token}.x`, 'x'.repeat(5000)]) assert.equal(openState(key, bad), undefined);
    const wrongClaims = new CompactEncrypt(new TextEncoder().encode('{"s":1}')).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(key);
    return wrongClaims.then((t) => assert.equal(openState(key, t), undefined));
  });
});
