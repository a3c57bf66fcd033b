// "Did you mean" for flags and configuration keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closest, distance } from '../../src/config/closest.js';
import { resolveCli } from '../../src/config/resolve.js';
import { loadConfigFile } from '../../src/config/file.js';
import { writeConfig } from '../support/config.js';

const message = (argv: string[]) => {
  try {
    resolveCli(argv, {});
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
};

describe('did you mean', () => {
  it('counts a swapped pair as one edit and takes an unambiguous prefix', () => {
    assert.equal(distance('prot', 'port'), 1);
    assert.equal(distance('kitten', 'sitting'), 3);
    assert.equal(closest('prot', ['port', 'host']), 'port');
    assert.equal(closest('pass-env', ['pass-environment', 'port']), 'pass-environment');
    assert.equal(closest('zzzzzz', ['port', 'host']), undefined);
  });

  it("names the closest flag, and ours for other proxies' flags", () => {
    assert.equal(message(['--prot', '1', '--', 'x']), "unknown option '--prot' (did you mean --port?)");
    assert.equal(message(['--allowed-origins', 'x', '--', 'x']), "unknown option '--allowed-origins' (did you mean --allowed-origin?)");
    assert.equal(message(['--allow-origin', 'x', '--', 'x']), "unknown option '--allow-origin' (did you mean --cors-origin?)");
    assert.equal(message(['--pass-env', '--', 'x']), "unknown option '--pass-env' (did you mean --pass-environment?)");
    assert.equal(message(['--transport', 'sse']), "unknown option '--transport' (did you mean --upstream-transport?)");
    assert.equal(
      message(['--named-server-config', 'f.json']),
      "unknown option '--named-server-config' (did you mean --config (it reads the mcpServers file as it is)?)",
    );
    assert.equal(message(['--xyzzy-frob']), "unknown option '--xyzzy-frob'");
  });

  it('answers --env K V and a positional URL with the form to write', () => {
    assert.equal(message(['--env', 'TOKEN', 'abc', '--', 'x']), "--env TOKEN VALUE: write --env TOKEN=VALUE (one argument; a server's command goes after --)");
    assert.ok(!message(['--env', 'TOKEN', 'abc', '--', 'x']).includes('abc'));
    assert.equal(
      message(['http://127.0.0.1:8080/sse?token=s3']),
      'unexpected URL argument: give the legacy server as --upstream URL (with --upstream-transport sse for an SSE server)',
    );
  });

  it('names the closest key of a configuration file at any depth', () => {
    const path = writeConfig('upstreamz: {}\nupstreams:\n  a:\n    stdoi: { command: node }\n    suspend: { defualt: hold }\n');
    assert.throws(
      () => loadConfigFile(path, {}),
      (err: Error) =>
        err.message.includes('(top level): Unrecognized key: "upstreamz" (did you mean upstreams?)') &&
        err.message.includes('upstreams.a: Unrecognized key: "stdoi" (did you mean stdio?)') &&
        err.message.includes('upstreams.a.suspend: Unrecognized key: "defualt" (did you mean default?)'),
    );
  });
});
