// A retry whose requestState the front opened already (to learn which instance holds its call)
// reaches the bridge with those claims: the bridge checks them and does not decrypt the state again.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { expectCode, front, setup, type Asked } from '../support/bridge-setup.js';
import { tick } from '../support/fake-session.js';

async function suspended() {
  const s = setup();
  const first = s.bridge.call(front());
  await tick();
  s.last().ask('elicitation/create', { message: 'How many?', requestedSchema: { type: 'object', properties: {} } });
  const asked = (await first) as unknown as Asked;
  return { ...s, asked, claims: await s.sealer.inspect(asked.requestState) };
}

const ANSWERS = { 'elicitation-1': { action: 'accept', content: { n: 4 } } };

describe('Bridge: a requestState the front opened', () => {
  it('is resumed from the claims, without opening the state again', async () => {
    const { bridge, last, sealer, asked, claims } = await suspended();
    let opened = 0;
    const open = sealer.open.bind(sealer);
    const inspect = sealer.inspect.bind(sealer);
    sealer.open = (...a) => {
      opened++;
      return open(...a);
    };
    sealer.inspect = (...a) => {
      opened++;
      return inspect(...a);
    };
    const retry = bridge.call(front({ requestState: asked.requestState, openedState: claims, inputResponses: ANSWERS }));
    await tick();
    last().lastCall.resolve({ content: [], booked: 4 });
    assert.deepEqual(await retry, { content: [], booked: 4 });
    assert.equal(opened, 0);
  });

  it('is still checked against the retry: another principal or request is refused as before', async () => {
    const { bridge, asked, claims } = await suspended();
    await expectCode(
      bridge.call(front({ requestState: asked.requestState, openedState: claims, principal: 'mallory', inputResponses: ANSWERS })),
      'state_invalid',
    );
    const other = front({ requestState: asked.requestState, openedState: claims, inputResponses: ANSWERS });
    other.identity = { method: 'tools/call', target: 'book', args: { day: 'tue' } };
    await expectCode(bridge.call(other), 'state_invalid');
    assert.equal(bridge.suspendedCount, 1, 'the round is still open');
  });
});
