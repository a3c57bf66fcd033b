// The suspend mode in the configuration: --suspend, per-upstream `suspend:`, and --max-state-bytes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { writeConfig } from '../support/config.js';

const run = (argv: string[]) => {
  const action = resolveCli(argv, {});
  assert.equal(action.action, 'run');
  return (action as Extract<typeof action, { action: 'run' }>).config;
};

describe('suspend configuration', () => {
  it('defaults to auto with no tool lists, and --suspend sets the mode', () => {
    assert.deepEqual(run(['--', 'srv']).upstreams[0]!.suspend, { default: 'auto', replay: [], hold: [] });
    assert.deepEqual(run(['--suspend', 'replay', '--', 'srv']).upstreams[0]!.suspend, { default: 'replay', replay: [], hold: [] });
    assert.equal(run(['--', 'srv']).upstreams[0]!.maxStateBytes, 16_384);
    assert.equal(run(['--max-state-bytes', '4096', '--', 'srv']).upstreams[0]!.maxStateBytes, 4096);
  });

  it('rejects an unknown mode and an out-of-range state size', () => {
    assert.throws(
      () => run(['--suspend', 'sometimes', '--', 'srv']),
      (e: unknown) => e instanceof ConfigError && /--suspend: expected auto, hold or replay, got 'sometimes'/.test(e.message),
    );
    assert.throws(() => run(['--max-state-bytes', '100', '--', 'srv']), /--max-state-bytes: 100 is out of range \(1024 to 65536\)/);
  });

  it('reads suspend per upstream from the file; --suspend overrides the default but keeps the tool lists', () => {
    const path = writeConfig(`
upstreams:
  a:
    stdio: { command: srv }
    suspend: { default: hold, replay: [search, lookup] }
  b:
    stdio: { command: srv }
    maxStateBytes: 2048
`);
    const [a, b] = run(['--config', path]).upstreams;
    assert.deepEqual(a!.suspend, { default: 'hold', replay: ['search', 'lookup'], hold: [] });
    assert.deepEqual(b!.suspend, { default: 'auto', replay: [], hold: [] });
    assert.equal(b!.maxStateBytes, 2048);
    assert.deepEqual(run(['--config', path, '--suspend', 'replay']).upstreams[0]!.suspend, { default: 'replay', replay: ['search', 'lookup'], hold: [] });
  });

  it('rejects a tool listed both ways and an unknown key, naming the field', () => {
    const both = writeConfig('upstreams:\n  a:\n    stdio: { command: srv }\n    suspend: { replay: [x], hold: [x] }\n');
    assert.throws(() => run(['--config', both]), /upstreams\.a\.suspend: 'x' is in both replay and hold/);
    const unknown = writeConfig('upstreams:\n  a:\n    stdio: { command: srv }\n    suspend: { mode: replay }\n');
    assert.throws(() => run(['--config', unknown]), /upstreams\.a\.suspend/);
  });
});

describe('string shorthands in the file', () => {
  it('takes suspend: MODE, http: URL, sse: URL, websocket: URL and audit: FILE', () => {
    const path = writeConfig(`
audit: /tmp/audit.jsonl
upstreams:
  a: { stdio: { command: srv }, suspend: hold }
  b: { http: "http://127.0.0.1:1/mcp", suspend: replay }
  c: { sse: "http://127.0.0.1:1/sse" }
  d: { websocket: "ws://127.0.0.1:1/ws" }
`);
    const config = run(['--config', path]);
    const [a, b, c, d] = config.upstreams;
    assert.deepEqual(a!.suspend, { default: 'hold', replay: [], hold: [] });
    assert.deepEqual(b!.suspend, { default: 'replay', replay: [], hold: [] });
    assert.deepEqual([b!.target.kind, c!.target.kind, d!.target.kind], ['http', 'sse', 'websocket']);
    assert.equal(config.audit?.file, '/tmp/audit.jsonl');
  });

  it('answers a wrong shorthand in its own terms, not with "expected object"', () => {
    const path = writeConfig('upstreams:\n  a: { stdio: { command: srv }, suspend: hodl }\n  b: { http: "ftp://x" }\n  c: { sse: 5 }\n');
    assert.throws(
      () => run(['--config', path]),
      (err: Error) =>
        /upstreams\.a\.suspend: Invalid option: expected one of "auto"\|"hold"\|"replay"/.test(err.message) &&
        /upstreams\.b\.http: must be an http:\/\/ or https:\/\/ URL/.test(err.message) &&
        /upstreams\.c\.sse: expected string or object/.test(err.message) &&
        !/expected object/.test(err.message),
    );
  });
});
