// Which legacy log lines a 2026-07-28 request hears (protocol/log-level.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LOG_SEVERITY, logVerdict } from '../../src/protocol/log-level.js';

describe('logVerdict', () => {
  it('sends nothing to a request that asked for no logs', () => {
    for (const level of LOG_SEVERITY) assert.equal(logVerdict(level, undefined), 'not_asked');
  });

  it('sends a line at or above the level asked for, as logging/setLevel did', () => {
    assert.equal(logVerdict('info', 'debug'), 'send');
    assert.equal(logVerdict('warning', 'warning'), 'send');
    assert.equal(logVerdict('emergency', 'warning'), 'send');
    assert.equal(logVerdict('info', 'warning'), 'not_asked');
    assert.equal(logVerdict('debug', 'info'), 'not_asked');
  });

  it('calls a line without one of the eight levels invalid', () => {
    assert.equal(logVerdict('warn', 'debug'), 'invalid');
    assert.equal(logVerdict(undefined, 'debug'), 'invalid');
    assert.equal(logVerdict(3, 'debug'), 'invalid');
  });

  it('filters nothing out for a level the request names wrongly', () => {
    assert.equal(logVerdict('debug', 'verbose'), 'send');
  });
});
