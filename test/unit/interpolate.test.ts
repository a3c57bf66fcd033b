import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { interpolateEnv } from '../../src/config/interpolate.js';
import { loadConfigFile } from '../../src/config/file.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { writeConfig } from '../support/config.js';

describe('interpolateEnv', () => {
  it('replaces ${VAR} in every string value, nested in objects and arrays, and leaves keys and other types alone', () => {
    const env = { HOST: '10.0.0.1', TOKEN: 't0k', EMPTY: '' };
    const { value, problems } = interpolateEnv(
      { listen: { host: '${HOST}', port: 8080 }, a: ['x-${TOKEN}-${TOKEN}', true, null], '${HOST}': 'key stays', e: '[${EMPTY}]' },
      env,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(value, { listen: { host: '10.0.0.1', port: 8080 }, a: ['x-t0k-t0k', true, null], '${HOST}': 'key stays', e: '[]' });
  });

  it('refuses the state key variable (the default one and stateKeyEnv), so it cannot reach a child', () => {
    const key = 'k'.repeat(43);
    const { value, problems } = interpolateEnv({ e: { X: '${MRTR_STATE_KEY}' } }, { MRTR_STATE_KEY: key }, new Set(['MRTR_STATE_KEY']));
    assert.deepEqual(problems, ["e.X: ${MRTR_STATE_KEY} is the proxy's state key, which is never written into the configuration"]);
    assert.ok(!JSON.stringify(value).includes(key));
    const path = writeConfig('stateKeyEnv: MY_KEY\nupstreams:\n  a: { stdio: { command: node, env: { K: "${MY_KEY}" } } }\n');
    assert.throws(
      () => loadConfigFile(path, { MY_KEY: key }),
      (err: Error) => /upstreams\.a\.stdio\.env\.K: \$\{MY_KEY\} is the proxy's state key/.test(err.message) && !err.message.includes(key),
    );
  });

  it('reads $${ as a literal ${', () => {
    const { value, problems } = interpolateEnv({ a: 'cost: $${PRICE} and ${X}' }, { X: '1' });
    assert.deepEqual({ value, problems }, { value: { a: 'cost: ${PRICE} and 1' }, problems: [] });
  });

  it('names the field of every unset variable or malformed reference, never a value', () => {
    const { problems } = interpolateEnv({ upstreams: { a: { stdio: { args: ['ok', '${NOPE}'], cwd: '${1BAD}' } } }, b: 'open ${UNCLOSED' }, { SECRET: 's3' });
    assert.deepEqual(problems, [
      'upstreams.a.stdio.args[1]: environment variable NOPE is not set',
      "upstreams.a.stdio.cwd: '${1BAD}' is not a ${VARIABLE} reference (write $${ for a literal ${)",
      "b: '${UNCLOSED' is not a ${VARIABLE} reference (write $${ for a literal ${)",
    ]);
  });
});

describe('configuration file problems', () => {
  it('are all reported at once, each naming its field', () => {
    const path = writeConfig(`
listen: { port: 99999 }
upstreams:
  a: { http: { url: "ftp://x" } }
  b: { stdio: { command: "\${MISSING_COMMAND}" }, maxSessions: 0 }
  c: { http: { url: "http://127.0.0.1:1/mcp" }, headers: { Authorization: { env: MISSING_TOKEN } } }
`);
    assert.throws(
      () => loadConfigFile(path, {}),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        const lines = err.message.split('\n');
        assert.equal(lines.length, 4, err.message);
        for (const l of lines) assert.ok(l.startsWith(`${path}: `), l);
        assert.match(err.message, /upstreams\.b\.stdio\.command: environment variable MISSING_COMMAND is not set/);
        assert.match(err.message, /listen\.port: /);
        assert.match(err.message, /upstreams\.a\.http\.url: must be an http:\/\/ or https:\/\/ URL/);
        assert.match(err.message, /upstreams\.b\.maxSessions: /);
        return true;
      },
    );
  });

  it('include unset header variables once the schema holds', () => {
    const path = writeConfig('upstreams:\n  c: { http: { url: "http://127.0.0.1:1/mcp" }, headers: { A: { env: T1 }, B: { env: T2 } } }\n');
    assert.throws(
      () => loadConfigFile(path, {}),
      (err: Error) =>
        err.message.split('\n').length === 2 &&
        /headers\.A: environment variable T1/.test(err.message) &&
        /headers\.B: environment variable T2/.test(err.message),
    );
  });
});

describe('$VAR, ${env:VAR} and $$', () => {
  it('reads $VAR and ${env:VAR} as ${VAR}, and $$ as a literal $', () => {
    const { value, problems } = interpolateEnv({ a: '$HOST:$PORT/x', b: '${env:HOST}', c: 'pa$$word $$HOST', d: 'cost 5$ and $1' }, { HOST: 'h', PORT: '80' });
    assert.deepEqual(problems, []);
    assert.deepEqual(value, { a: 'h:80/x', b: 'h', c: 'pa$word $HOST', d: 'cost 5$ and $1' });
  });

  it('names an unset $VAR, and editor variables with what to write instead', () => {
    const { problems } = interpolateEnv(
      { a: '$NOPE', b: '${input:api-key}', c: '${workspaceFolder}/x', d: '${userHome}', e: '$MRTR_STATE_KEY' },
      {},
      new Set(['MRTR_STATE_KEY']),
    );
    assert.deepEqual(problems, [
      'a: environment variable NOPE is not set (write $$ for a literal $)',
      'b: ${input:api-key} is an input VS Code prompts for; the proxy cannot prompt: set an environment variable and write ${NAME}',
      "c: ${workspaceFolder} is an editor's variable; write a path relative to the configuration file (a stdio cwd defaults to its directory)",
      "d: ${userHome} is an editor's variable; write $HOME",
      "e: ${MRTR_STATE_KEY} is the proxy's state key, which is never written into the configuration",
    ]);
  });

  it('reports the variables it read with where they went', () => {
    assert.deepEqual(interpolateEnv({ h: { A: 'Bearer $T' } }, { T: 't' }).variables, [{ name: 'T', path: ['h', 'A'] }]);
  });
});
