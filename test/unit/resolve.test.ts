import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import * as D from '../../src/config/defaults.js';
import { ConfigError } from '../../src/protocol/errors.js';
import type { ProxyConfig, UpstreamConfig, UpstreamTarget } from '../../src/config/types.js';

const CMD = ['--', 'node', 'server.js', '--flag'];
/** Deterministic key material; the first byte keeps the base64url text from starting with '-'. */
function bytesOf(n: number, seed = 1): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i === 0 ? 0x10 + seed : (i * 37 + seed * 101) & 0xff));
}
const KEY_BYTES = bytesOf(32);
const KEY = Buffer.from(KEY_BYTES).toString('base64url');

/** The command-line case has one upstream, `default`; its fields are flattened in for the assertions. */
type Flat = ProxyConfig & Omit<UpstreamConfig, 'name'> & { upstream: UpstreamTarget };

function run(argv: readonly string[], env: Record<string, string | undefined> = {}): Flat {
  const r = resolveCli(argv, env);
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  assert.equal(r.config.upstreams.length, 1);
  const only = r.config.upstreams[0]!;
  assert.equal(only.name, 'default');
  assert.equal(r.config.defaultUpstream, 'default');
  return { ...r.config, ...only, upstream: only.target };
}

/** Asserts a ConfigError whose message matches `pattern`; returns the message. */
function configError(argv: readonly string[], pattern: RegExp, env: Record<string, string | undefined> = {}): string {
  let message = '';
  assert.throws(
    () => resolveCli(argv, env),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
      assert.match(err.message, pattern);
      message = err.message;
      return true;
    },
  );
  return message;
}

describe('resolveCli', () => {
  describe('defaults', () => {
    // The limits' defaults are checked row by row in limits.test.ts.
    it('fills every option from defaults.ts', () => {
      const c = run(CMD);
      assert.equal(c.host, D.DEFAULT_HOST);
      assert.equal(c.port, D.DEFAULT_PORT);
      assert.deepEqual(c.upstream, { kind: 'stdio', command: 'node', args: ['server.js', '--flag'] });
      assert.deepEqual(c.roots, []);
      assert.equal(c.logLevel, D.DEFAULT_LOG_LEVEL);
    });

    it('generates a random 32-byte key when none is configured', () => {
      const a = run(CMD).stateKey;
      const b = run(CMD).stateKey;
      assert.equal(a.generated, true);
      assert.equal(a.bytes.length, 32);
      assert.ok(a.bytes instanceof Uint8Array);
      assert.notDeepEqual(a.bytes, b.bytes);
    });

    it('does not mutate argv', () => {
      const argv = ['--port', '1', ...CMD];
      const copy = [...argv];
      run(argv);
      assert.deepEqual(argv, copy);
    });
  });

  describe('upstream', () => {
    it('--upstream takes an http or https URL', () => {
      const c = run(['--upstream', 'http://localhost:3000/mcp']);
      assert.equal(c.upstream.kind, 'http');
      assert.ok(c.upstream.kind === 'http' && c.upstream.url instanceof URL);
      assert.ok(c.upstream.kind === 'http' && c.upstream.url.href === 'http://localhost:3000/mcp');
      const s = run(['--upstream=https://example.com/mcp']);
      assert.ok(s.upstream.kind === 'http' && s.upstream.url.protocol === 'https:');
    });

    it('-- COMMAND ARGS... is a stdio server, args passed verbatim', () => {
      const c = run(['--port', '9000', '--', 'python', '-m', 'server', '--port', '1', '--', 'x']);
      assert.deepEqual(c.upstream, { kind: 'stdio', command: 'python', args: ['-m', 'server', '--port', '1', '--', 'x'] });
      assert.equal(c.port, 9000, 'options after -- belong to the command');
    });

    it('both --upstream and -- COMMAND is an error', () => {
      configError(['--upstream', 'http://x/mcp', '--', 'node', 's.js'], /either --upstream URL or -- COMMAND, not both/);
    });

    it('neither is an error', () => {
      configError([], /no legacy server/);
      configError(['--port', '1'], /no legacy server/);
      configError(['--'], /no legacy server/);
      configError(['--', ''], /no legacy server/);
    });

    it('a non-URL or a non-http URL is an error', () => {
      configError(['--upstream', 'not a url'], /^--upstream: 'not a url' is not a URL$/);
      configError(['--upstream', 'localhost:3000'], /^--upstream: only http, https, ws and wss/);
      configError(['--upstream', 'ftp://example.com/x'], /^--upstream: only http, https, ws and wss URLs are supported, got 'ftp:'$/);
      configError(['--upstream', 'file:///tmp/sock'], /got 'file:'/);
    });

    it('a positional argument before -- is an error pointing at --', () => {
      configError(['node', 'server.js'], /^unexpected argument 'node' \(put the legacy server's command after --\)$/);
    });
  });

  describe('integers', () => {
    const cases: [flag: string, key: keyof Flat, scale: number, min: number, max: number][] = [
      ['--port', 'port', 1, 0, 65535],
      ['--interaction-ttl', 'interactionTtlMs', 1000, 1, 86_400],
      ['--max-sessions', 'maxSessions', 1, 1, 100_000],
      ['--session-wait', 'sessionWaitMs', 1000, 0, 3600],
      ['--call-timeout', 'callTimeoutMs', 1000, 1, 86_400],
      ['--gather-window', 'gatherWindowMs', 1, 0, 10_000],
      ['--idle-session-ttl', 'idleSessionTtlMs', 1000, 1, 86_400],
      ['--connect-timeout', 'connectTimeoutMs', 1000, 1, 3600],
    ];

    for (const [flag, key, scale, min, max] of cases) {
      it(`${flag} accepts ${min}..${max} and scales by ${scale}`, () => {
        assert.equal(run([flag, String(min), ...CMD])[key], min * scale);
        assert.equal(run([`${flag}=${max}`, ...CMD])[key], max * scale);
        assert.equal(run([flag, '7', ...CMD])[key], 7 * scale);
      });

      it(`${flag} rejects out-of-range values, naming the flag and the range`, () => {
        configError([flag, String(max + 1), ...CMD], new RegExp(`^${flag}: ${max + 1} is out of range \\(${min} to ${max}\\)$`));
        if (min > 0) configError([flag, String(min - 1), ...CMD], new RegExp(`^${flag}: ${min - 1} is out of range`));
      });

      it(`${flag} rejects values that are not whole numbers`, () => {
        for (const bad of ['abc', '1.5', '1e3', '+5', '0x10', ' 5', '5 ', '', '٣']) {
          configError([`${flag}=${bad}`, ...CMD], new RegExp(`^${flag}: expected a whole number, got '`));
        }
        // A negative number is a number out of range, with or without `=` (issue 12).
        configError([`${flag}=-1`, ...CMD], new RegExp(`^${flag}: -1 is out of range \\(\\d+ to \\d+\\)$`));
        configError([flag, '-1', ...CMD], new RegExp(`^${flag}: -1 is out of range \\(\\d+ to \\d+\\)$`));
      });
    }

    it('accepts leading zeros and rejects huge numbers as out of range', () => {
      assert.equal(run(['--port', '0080', ...CMD]).port, 80);
      configError(['--port', '99999999999999999999999', ...CMD], /^--port: .* is out of range/);
    });

    it('an option without its value is a ConfigError', () => {
      configError(['--port'], /--port/);
    });
  });

  describe('--state-key', () => {
    it('accepts base64url of 32 bytes', () => {
      const c = run(['--state-key', KEY, ...CMD]);
      assert.equal(c.stateKey.generated, false);
      assert.deepEqual(c.stateKey.bytes, KEY_BYTES);
    });

    it('rejects other lengths without echoing the key', () => {
      for (const n of [1, 16, 31, 33, 64]) {
        const key = Buffer.from(bytesOf(n, 2)).toString('base64url');
        const msg = configError(
          ['--state-key', key, ...CMD],
          new RegExp(`^--state-key: it decodes to ${n} bytes, not 32; expected 32 random bytes in base64url .*randomBytes\\(32\\)`),
        );
        assert.ok(!msg.includes(key));
      }
    });

    it('rejects non-base64url text without echoing the key', () => {
      const standard = Buffer.from(KEY_BYTES).toString('base64'); // may have + / =
      for (const key of [`${KEY}=`, `${KEY.slice(0, 40)}+/=`, `${standard}=`, 'sekrit key with spaces', `${KEY}.`]) {
        const msg = configError(
          [`--state-key=${key}`, ...CMD],
          /^--state-key: (this looks like standard base64[^;]*|it has characters base64url does not use); expected 32 random bytes in base64url/,
        );
        assert.ok(!msg.includes(key));
        assert.ok(!msg.includes(KEY.slice(0, 10)));
      }
    });

    it('a key starting with a dash works with =, and the ambiguity error does not echo it', () => {
      const bytes = new Uint8Array(32);
      bytes[0] = 0xf8; // base64url '-' first
      const key = Buffer.from(bytes).toString('base64url');
      assert.equal(key[0], '-');
      assert.deepEqual(run([`--state-key=${key}`, ...CMD]).stateKey.bytes, bytes);
      const msg = configError(['--state-key', key, ...CMD], /--state-key/);
      assert.ok(!msg.includes(key));
    });

    it('reads MRTR_STATE_KEY from the environment', () => {
      const c = run(CMD, { MRTR_STATE_KEY: KEY });
      assert.equal(c.stateKey.generated, false);
      assert.deepEqual(c.stateKey.bytes, KEY_BYTES);
    });

    it('names MRTR_STATE_KEY in errors about the env key, without echoing it', () => {
      const short = Buffer.from(bytesOf(20, 4)).toString('base64url');
      const msg = configError(CMD, /^MRTR_STATE_KEY: it decodes to 20 bytes, not 32; /, { MRTR_STATE_KEY: short });
      assert.ok(!msg.includes(short));
      configError(CMD, /^MRTR_STATE_KEY: this looks like standard base64/, { MRTR_STATE_KEY: 'a+b' });
    });

    it('--state-key wins over MRTR_STATE_KEY', () => {
      const other = Buffer.from(bytesOf(32, 3)).toString('base64url');
      assert.deepEqual(run(['--state-key', KEY, ...CMD], { MRTR_STATE_KEY: other }).stateKey.bytes, KEY_BYTES);
      // ...and the env is not validated when the flag is given.
      assert.deepEqual(run(['--state-key', KEY, ...CMD], { MRTR_STATE_KEY: 'junk+' }).stateKey.bytes, KEY_BYTES);
    });

    it('an empty MRTR_STATE_KEY counts as unset', () => {
      assert.equal(run(CMD, { MRTR_STATE_KEY: '' }).stateKey.generated, true);
      assert.equal(run(CMD, { MRTR_STATE_KEY: undefined }).stateKey.generated, true);
    });

    it('an explicitly empty --state-key is an error, not a silently generated key', () => {
      configError(['--state-key', '', ...CMD], /^--state-key: /);
    });
  });

  describe('--root', () => {
    it('takes file:// URIs, optionally with =NAME, repeatedly and in order', () => {
      const c = run(['--root', 'file:///work', '--root', 'file:///home/me/project=My Project', '--root=file:///tmp=', ...CMD]);
      assert.deepEqual(c.roots, [{ uri: 'file:///work' }, { uri: 'file:///home/me/project', name: 'My Project' }, { uri: 'file:///tmp' }]);
    });

    it('splits at the first = only', () => {
      assert.deepEqual(run(['--root', 'file:///a=b=c', ...CMD]).roots, [{ uri: 'file:///a', name: 'b=c' }]);
    });

    it('rejects URIs that are not file://', () => {
      configError(['--root', '/work', ...CMD], /^--root: '\/work' must be a file:\/\/ URI$/);
      configError(['--root', 'https://example.com=web', ...CMD], /^--root: 'https:\/\/example.com' must be a file:\/\/ URI$/);
      configError(['--root', '=name', ...CMD], /^--root: '' must be a file:\/\/ URI$/);
    });
  });

  describe('other options', () => {
    it('--host is taken as given', () => {
      assert.equal(run(['--host', '0.0.0.0', '--insecure-no-auth', ...CMD]).host, '0.0.0.0');
    });

    it('--log-level takes the known levels', () => {
      for (const level of ['error', 'warn', 'info', 'debug']) assert.equal(run(['--log-level', level, ...CMD]).logLevel, level);
      configError(['--log-level', 'verbose', ...CMD], /^--log-level: expected one of error, warn, info, debug, got 'verbose'$/);
      configError(['--log-level', 'INFO', ...CMD], /^--log-level:/);
    });

    it('an unknown option is a ConfigError', () => {
      configError(['--bogus', ...CMD], /^unknown option '--bogus'$/);
      configError(['-x', ...CMD], /^unknown option '-x'$/);
      const msg = configError(['--state-kye=secret-value', ...CMD], /^unknown option '--state-kye' \(did you mean --state-key\?\)$/);
      assert.ok(!msg.includes('secret-value'));
    });

    it('a value for a boolean option is a ConfigError', () => {
      configError(['--help=yes'], /^--help takes no value$/);
    });
  });

  describe('actions', () => {
    it('--help and -h ask for help, without needing a legacy server', () => {
      assert.deepEqual(resolveCli(['--help'], {}), { action: 'help' });
      assert.deepEqual(resolveCli(['-h'], {}), { action: 'help' });
      assert.deepEqual(resolveCli(['--port', 'nope', '--help'], {}), { action: 'help' });
      assert.deepEqual(resolveCli(['--help', ...CMD], {}), { action: 'help' });
    });

    it('--version asks for the version', () => {
      assert.deepEqual(resolveCli(['--version'], {}), { action: 'version' });
      assert.deepEqual(resolveCli(['--upstream', 'ftp://bad', '--version'], {}), { action: 'version' });
    });

    it('--help wins over --version', () => {
      assert.deepEqual(resolveCli(['--version', '--help'], {}), { action: 'help' });
    });

    it('--help after -- belongs to the command', () => {
      const c = run(['--', 'server', '--help']);
      assert.deepEqual(c.upstream, { kind: 'stdio', command: 'server', args: ['--help'] });
    });

    it('unknown options fail even with --help', () => {
      configError(['--help', '--bogus'], /unknown option/);
    });
  });
});
