import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAX_TIMER_MS } from '../../src/config/defaults.js';
import { armNoTimerForTheLongest } from '../../src/upstream/sdk-internals.js';

type Timers = {
  _setupTimeout(id: number, timeout: number, max: number | undefined, onTimeout: () => void): void;
  _cleanupTimeout(id: number): void;
  _timeoutInfo: Map<number, unknown>;
};

describe('legacy session request timers', () => {
  it('arms no SDK timer for a request with the longest timeout, and every shorter one as before', () => {
    const client = new Client({ name: 't', version: '1' });
    armNoTimerForTheLongest(client);
    const sdk = client as unknown as Timers;
    sdk._setupTimeout(1, MAX_TIMER_MS, undefined, () => {});
    assert.equal(sdk._timeoutInfo.has(1), false);
    sdk._setupTimeout(2, 60_000, undefined, () => {});
    assert.equal(sdk._timeoutInfo.has(2), true);
    sdk._cleanupTimeout(2);
    assert.equal(sdk._timeoutInfo.size, 0);
  });
});
