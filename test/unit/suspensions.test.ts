import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MISS_MESSAGES, SuspensionTable, type Miss } from '../../src/bridge/suspensions.js';

/** A hand-wound clock: the table never reads time itself, so tests pass `clock.now`. */
function fakeClock(start = 1_000_000) {
  let t = start;
  return {
    get now() {
      return t;
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

function miss(r: { ok: true } | { ok: false; miss: Miss }): Miss {
  if (r.ok) assert.fail('expected a miss');
  return r.miss;
}

describe('SuspensionTable', () => {
  it('starts empty and reports unknown handles', () => {
    const t = new SuspensionTable<string>();
    assert.equal(t.size, 0);
    assert.deepEqual(t.items(), []);
    assert.equal(miss(t.peek('nope', 1, 0)), 'unknown');
    assert.equal(miss(t.claim('nope', 1, 0)), 'unknown');
  });

  it("shorten brings a live round's expiry forward, never later, and leaves other rounds alone", () => {
    const t = new SuspensionTable<string>();
    t.put('h', 'item', 1, 600_000);
    t.shorten('h', 2, 10);
    assert.equal(t.expire(20).length, 0, 'another round is not shortened');
    t.shorten('h', 1, 10_000);
    t.shorten('h', 1, 900_000);
    assert.deepEqual(t.expire(9_999), []);
    assert.deepEqual(t.expire(10_000), ['item']);
    assert.deepEqual(t.peek('h', 1, 10_000), { ok: false, miss: 'expired' });
  });

  it('peek does not consume', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<{ id: number }>();
    const item = { id: 7 };
    t.put('h1', item, 1, clock.now + 1000);
    assert.equal(t.size, 1);
    for (let i = 0; i < 3; i++) {
      const r = t.peek('h1', 1, clock.now);
      assert.ok(r.ok);
      assert.equal(r.item, item);
    }
    assert.equal(t.size, 1);
  });

  it('claim is single use: the second claim misses with consumed', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h1', 'item', 1, clock.now + 1000);
    const first = t.claim('h1', 1, clock.now);
    assert.deepEqual(first, { ok: true, item: 'item' });
    assert.equal(t.size, 0);
    assert.equal(miss(t.claim('h1', 1, clock.now)), 'consumed');
    assert.equal(miss(t.peek('h1', 1, clock.now)), 'consumed');
  });

  it('a state for another round misses with consumed and does not consume the live round', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h1', 'item', 2, clock.now + 1000);
    assert.equal(miss(t.peek('h1', 1, clock.now)), 'consumed');
    assert.equal(miss(t.claim('h1', 1, clock.now)), 'consumed');
    assert.equal(miss(t.claim('h1', 3, clock.now)), 'consumed');
    assert.equal(t.size, 1);
    assert.deepEqual(t.claim('h1', 2, clock.now), { ok: true, item: 'item' });
  });

  it('re-suspending a handle for the next round revives it and retires the old round', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h1', 'round1', 1, clock.now + 1000);
    assert.ok(t.claim('h1', 1, clock.now).ok);
    t.put('h1', 'round2', 2, clock.now + 1000);
    assert.equal(miss(t.claim('h1', 1, clock.now)), 'consumed');
    assert.deepEqual(t.peek('h1', 2, clock.now), { ok: true, item: 'round2' });
  });

  it('put clears a tombstone for the handle', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h1', 'a', 1, clock.now + 1000);
    t.end('h1', 'completed');
    t.put('h1', 'b', 1, clock.now + 1000);
    assert.deepEqual(t.peek('h1', 1, clock.now), { ok: true, item: 'b' });
  });

  it('misses with expired at and after expiresAt, without removing the entry', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h1', 'item', 1, clock.now + 100);
    clock.advance(99);
    assert.ok(t.peek('h1', 1, clock.now).ok);
    clock.advance(1);
    assert.equal(miss(t.peek('h1', 1, clock.now)), 'expired');
    assert.equal(miss(t.claim('h1', 1, clock.now)), 'expired');
    assert.equal(t.size, 1, 'only expire() removes');
  });

  it('expire(now) ends exactly the entries whose time has come, and leaves an expired tombstone', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('a', 'A', 1, clock.now + 10);
    t.put('b', 'B', 1, clock.now + 20);
    t.put('c', 'C', 1, clock.now + 30);
    assert.deepEqual(t.expire(clock.now), []);
    clock.advance(20);
    assert.deepEqual(t.expire(clock.now).sort(), ['A', 'B']);
    assert.equal(t.size, 1);
    assert.deepEqual(t.items(), ['C']);
    assert.equal(miss(t.peek('a', 1, clock.now)), 'expired');
    assert.equal(miss(t.claim('b', 1, clock.now)), 'expired');
    assert.deepEqual(t.peek('c', 1, clock.now), { ok: true, item: 'C' });
    assert.deepEqual(t.expire(clock.now), [], 'a second sweep finds nothing new');
    clock.advance(10);
    assert.deepEqual(t.expire(clock.now), ['C']);
    assert.equal(t.size, 0);
  });

  it('a claimed handle is consumed, not expired, after its time passes', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h', 'x', 1, clock.now + 10);
    assert.ok(t.claim('h', 1, clock.now).ok);
    clock.advance(100);
    assert.deepEqual(t.expire(clock.now), []);
    assert.equal(miss(t.peek('h', 1, clock.now)), 'consumed');
  });

  it('end records why the interaction ended and returns its item', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('c', 'C', 1, clock.now + 10);
    t.put('x', 'X', 1, clock.now + 10);
    t.put('l', 'L', 1, clock.now + 10);
    t.put('e', 'E', 1, clock.now + 10);
    assert.equal(t.end('c', 'completed'), 'C');
    assert.equal(t.end('x', 'cancelled'), 'X');
    assert.equal(t.end('l', 'lost'), 'L');
    assert.equal(t.end('e', 'expired'), 'E');
    assert.equal(t.size, 0);
    assert.equal(miss(t.peek('c', 1, clock.now)), 'completed');
    assert.equal(miss(t.claim('x', 1, clock.now)), 'cancelled');
    assert.equal(miss(t.peek('l', 1, clock.now)), 'lost');
    assert.equal(miss(t.peek('e', 1, clock.now)), 'expired');
  });

  it('completed after consumed: end of a claimed handle overrides consumed', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<string>();
    t.put('h', 'x', 1, clock.now + 10);
    assert.ok(t.claim('h', 1, clock.now).ok);
    assert.equal(t.end('h', 'completed'), undefined);
    assert.equal(miss(t.peek('h', 1, clock.now)), 'completed');
  });

  it('end of an unknown handle returns undefined and still records the reason', () => {
    const t = new SuspensionTable<string>();
    assert.equal(t.end('ghost', 'lost'), undefined);
    assert.equal(miss(t.peek('ghost', 1, 0)), 'lost');
  });

  it('keeps at most maxTombstones tombstones, evicting the oldest', () => {
    const t = new SuspensionTable<string>(2);
    t.end('a', 'completed');
    t.end('b', 'cancelled');
    t.end('c', 'lost');
    assert.equal(miss(t.peek('a', 1, 0)), 'unknown');
    assert.equal(miss(t.peek('b', 1, 0)), 'cancelled');
    assert.equal(miss(t.peek('c', 1, 0)), 'lost');
  });

  it('re-tombstoning a handle makes it the newest', () => {
    const t = new SuspensionTable<string>(2);
    t.end('a', 'completed');
    t.end('b', 'completed');
    t.end('a', 'lost');
    t.end('c', 'completed');
    assert.equal(miss(t.peek('a', 1, 0)), 'lost');
    assert.equal(miss(t.peek('b', 1, 0)), 'unknown');
    assert.equal(miss(t.peek('c', 1, 0)), 'completed');
  });

  it('bounds tombstones from claim and expire too, without touching live entries', () => {
    const clock = fakeClock();
    const t = new SuspensionTable<number>(3);
    for (let i = 0; i < 10; i++) t.put(`h${i}`, i, 1, clock.now + (i < 5 ? 5 : 1000));
    for (let i = 5; i < 7; i++) assert.ok(t.claim(`h${i}`, 1, clock.now).ok);
    clock.advance(5);
    assert.deepEqual(t.expire(clock.now).sort(), [0, 1, 2, 3, 4]);
    assert.deepEqual(t.items().sort(), [7, 8, 9]);
    // Tombstones in order: consumed h5, h6, then expired h0..h4; only the last 3 survive.
    const misses = Array.from({ length: 7 }, (_, i) => {
      const h = `h${i}`;
      return [h, miss(t.peek(h, 1, clock.now))] as const;
    });
    assert.deepEqual(Object.fromEntries(misses), {
      h0: 'unknown',
      h1: 'unknown',
      h2: 'expired',
      h3: 'expired',
      h4: 'expired',
      h5: 'unknown',
      h6: 'unknown',
    });
    for (const h of ['h7', 'h8', 'h9']) assert.ok(t.peek(h, 1, clock.now).ok);
  });

  it('remembers how long a legacy server that gave up waited', () => {
    const t = new SuspensionTable<string>();
    t.put('h', 'x', 1, 10_000);
    t.end('h', 'legacy_gave_up', 2500);
    assert.deepEqual(t.peek('h', 1, 0), { ok: false, miss: 'legacy_gave_up', waitedMs: 2500 });
    assert.deepEqual(t.claim('h', 1, 0), { ok: false, miss: 'legacy_gave_up', waitedMs: 2500 });
  });

  it('has a distinct message for every miss', () => {
    const misses: Miss[] = ['consumed', 'completed', 'expired', 'cancelled', 'lost', 'legacy_gave_up', 'unknown'];
    assert.deepEqual(Object.keys(MISS_MESSAGES).sort(), [...misses].sort());
    const texts = new Set(misses.map((m) => MISS_MESSAGES[m]));
    assert.equal(texts.size, misses.length);
    for (const text of texts) assert.ok(text.length > 10);
  });
});
