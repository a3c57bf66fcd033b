// What a reverse-bridge session listens for on its 2026-07-28 server and what of the listen stream
// reaches its 2025-era client: plain data in, plain data out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  honorsAnything,
  LISTEN_RETRY_FIRST_MS,
  LISTEN_RETRY_MAX_MS,
  listenableOf,
  listenEventOf,
  listenFilterOf,
  nextListenRetry,
} from '../../src/relay/listen-filter.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

describe('listenFilterOf', () => {
  it('asks for every list the server announces changes of, and the subscribed URIs when it supports subscriptions', () => {
    const can = listenableOf({ tools: { listChanged: true }, prompts: {}, resources: { listChanged: true, subscribe: true } });
    assert.deepEqual(listenFilterOf(can, new Set()), { toolsListChanged: true, resourcesListChanged: true });
    assert.deepEqual(listenFilterOf(can, new Set(['a://1', 'a://2'])), {
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['a://1', 'a://2'],
    });
  });

  it('asks for nothing (no stream) when the server announces nothing', () => {
    assert.equal(listenFilterOf(listenableOf({ tools: {}, resources: {} }), new Set(['a://1'])), undefined);
    assert.equal(listenFilterOf(listenableOf(undefined), new Set()), undefined);
  });
});

describe('listenEventOf', () => {
  it('reads the acknowledgement of its own subscription only', () => {
    const ack = {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { [SUB]: 's1' } },
    };
    assert.deepEqual(listenEventOf(ack, 's1'), { kind: 'acknowledged', honored: { toolsListChanged: true } });
    assert.deepEqual(listenEventOf(ack, 's2'), { kind: 'other' });
  });

  it('hands a change on as the legacy notification, without the subscription id', () => {
    const changed = { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 's1' } } };
    assert.deepEqual(listenEventOf(changed, 's1'), { kind: 'change', notification: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } });
    const updated = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'a://1', _meta: { [SUB]: 's1', x: 1 } } };
    assert.deepEqual(listenEventOf(updated, 's1'), {
      kind: 'change',
      notification: { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'a://1', _meta: { x: 1 } } },
    });
  });

  it('drops what is not a change of this subscription', () => {
    const tag = { _meta: { [SUB]: 's1' } };
    assert.deepEqual(listenEventOf({ method: 'notifications/message', params: { level: 'info', ...tag } }, 's1'), { kind: 'other' });
    assert.deepEqual(listenEventOf({ method: 'notifications/resources/updated', params: tag }, 's1'), { kind: 'other' }, 'an update names its URI');
    assert.deepEqual(listenEventOf({ method: 'notifications/tools/list_changed' }, 's1'), { kind: 'other' }, 'untagged');
  });
});

describe('honorsAnything', () => {
  it('is false for an acknowledgement that honored nothing', () => {
    assert.equal(honorsAnything({}), false);
    assert.equal(honorsAnything({ resourceSubscriptions: [] }), false);
    assert.equal(honorsAnything({ promptsListChanged: true }), true);
  });
});

describe('nextListenRetry', () => {
  it('doubles up to the most, and starts over after a stream that lived that long', () => {
    assert.equal(nextListenRetry(undefined, 0), LISTEN_RETRY_FIRST_MS);
    assert.equal(nextListenRetry(LISTEN_RETRY_FIRST_MS, 10), LISTEN_RETRY_FIRST_MS * 2);
    assert.equal(nextListenRetry(LISTEN_RETRY_MAX_MS, 10), LISTEN_RETRY_MAX_MS);
    assert.equal(nextListenRetry(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_MAX_MS), LISTEN_RETRY_FIRST_MS);
  });
});
