// An interactive call's notifications (bridge/notification-relay.ts): to the attached front request
// if it asked, held for the next one while none is attached, counted when none will come.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HELD_NOTIFICATIONS, NotificationRelay } from '../../src/bridge/notification-relay.js';

const log = (data: string, level = 'info') => ({ method: 'notifications/message' as const, params: { level, data } });

function relay() {
  const drops: string[] = [];
  const sent: unknown[] = [];
  const r = new NotificationRelay((method, reason) => void drops.push(`${method} ${reason}`));
  const sink = (logLevel?: string, progressToken?: string) => ({
    ...(logLevel ? { logLevel } : {}),
    ...(progressToken ? { progressToken } : {}),
    notify: async (n: { params: Record<string, unknown> }) => void sent.push(n.params['data'] ?? n.params['progressToken']),
  });
  return { r, drops, sent, sink };
}

describe('NotificationRelay', () => {
  it('silenced (a replayed run saying again what the client heard), counts what comes as replayed until it speaks', async () => {
    const { r, drops, sent, sink } = relay();
    r.silence();
    r.attach(sink('debug'));
    r.deliver(log('heard before'));
    r.speak();
    r.deliver(log('new'));
    await r.detach();
    assert.deepEqual([sent, drops], [['new'], ['notifications/message replayed']]);
  });

  it('cut (a call let go), relays nothing more, not even to the request still attached', async () => {
    const { r, drops, sent, sink } = relay();
    r.attach(sink('debug'));
    r.deliver(log('asked'));
    r.cut('call_ended');
    r.deliver(log('Internal Server Error', 'error'));
    await r.detach();
    assert.deepEqual([sent, drops], [['asked'], ['notifications/message call_ended']]);
  });

  it('holds what comes between rounds, up to a bound, and counts the rest', async () => {
    const { r, drops, sent, sink } = relay();
    for (let i = 0; i <= MAX_HELD_NOTIFICATIONS; i++) r.deliver(log(`line ${i}`));
    assert.deepEqual(drops, ['notifications/message call_ended']);
    r.attach(sink('debug'));
    await r.detach();
    assert.equal(sent.length, MAX_HELD_NOTIFICATIONS);
    assert.equal(sent[0], 'line 0');
  });

  it('counts nothing a request did not ask for: no level, no token', async () => {
    const { r, drops, sent, sink } = relay();
    r.attach(sink());
    r.deliver(log('quiet'));
    r.deliver({ method: 'notifications/progress', params: { progress: 1 } });
    await r.detach();
    assert.deepEqual([sent, drops], [[], []]);
  });

  it('drops, counted, what is held and what comes once no request will come', () => {
    const { r, drops } = relay();
    r.deliver(log('held'));
    r.close('task');
    r.deliver({ method: 'notifications/progress', params: { progress: 1 } });
    assert.deepEqual(drops, ['notifications/message task', 'notifications/progress task']);
  });
});
