import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { afterReload, reloadNotes } from '../../src/app/reload-notes.js';
import { resolveCli } from '../../src/config/resolve.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { TEST_STATE_KEY } from '../support/processes.js';

function config(args: string[], key = TEST_STATE_KEY): ProxyConfig {
  const r = resolveCli([...args, '--', 'node', 'server.js'], { MRTR_STATE_KEY: key });
  assert.equal(r.action, 'run');
  return (r as { config: ProxyConfig }).config;
}

describe('reloadNotes', () => {
  it('says nothing when only what a reload applies changed', () => {
    assert.deepEqual(reloadNotes(config([]), config(['--max-sessions', '3', '--call-timeout', '9'])), []);
  });

  it('names each thing that waits for a restart: listen address, state key, audit, front door', () => {
    const notes = reloadNotes(
      config([]),
      config(['--port', '9001', '--audit', '/tmp/a.jsonl', '--cors-origin', 'https://app.example.com'], Buffer.alloc(32, 9).toString('base64url')),
    );
    assert.equal(notes.length, 4, notes.join('\n'));
    assert.match(notes[0]!, /listen address/);
    assert.match(notes[1]!, /audit/);
    assert.match(notes[2]!, /state key/);
    assert.match(notes[3]!, /front-door .*CORS/);
  });

  it('says the fast lane waits for a restart, and keeps the running one', () => {
    const running = config([]);
    const next = config(['--fast-lane', 'off']);
    assert.equal(running.fastLane, true);
    assert.deepEqual(reloadNotes(running, next), ['--fast-lane takes effect after a restart']);
    assert.equal(afterReload(running, next).fastLane, true);
  });

  it('says the log format waits for a restart, and keeps the running one', () => {
    const running = config([]);
    const next = config(['--log-format', 'pretty']);
    assert.deepEqual(reloadNotes(running, next), ['--log-format takes effect after a restart']);
    assert.equal(afterReload(running, next).logFormat, undefined);
  });
});

describe('afterReload', () => {
  it('takes the upstreams and limits of the new configuration and keeps what waits for a restart', () => {
    const running = config([]);
    const next = config(['--port', '9001', '--max-sessions', '3', '--state-store', 'redis://127.0.0.1:6390'], Buffer.alloc(32, 9).toString('base64url'));
    const after = afterReload(running, next);
    assert.equal(after.port, running.port);
    assert.deepEqual(after.stateKey, running.stateKey);
    assert.equal(after.stateStore, undefined);
    assert.equal(after.upstreams[0]!.maxSessions, 3);
    assert.deepEqual(reloadNotes(after, next).length, 3);
  });
});
