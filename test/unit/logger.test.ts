// The logger: a line below the level costs nothing (it never reaches winston's stream), a line at
// or above it is written, in the root logger and its children alike, and a changed level applies.
// Its two line formats (json, pretty), secrets blanked out of both, and the default for stderr.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, infoLineWriter, lineFormat, type LogStyle, stderrStyle } from '../../src/telemetry/logger.js';
import { jsonLine } from '../../src/telemetry/json-line.js';

const LEVEL = Symbol.for('level');
const MESSAGE = Symbol.for('message');

describe('logger levels', () => {
  it('does not hand a line below the level to winston, and writes the others', () => {
    const log = createLogger('info');
    const written: string[] = [];
    const write = log.write.bind(log);
    log.write = (info: { message: string }) => {
      written.push(info.message);
      return write(info);
    };
    log.silent = true;
    const child = log.child({ upstream: 'u' });
    log.debug('root debug', { a: 1 });
    child.debug('child debug');
    log.info('root info');
    child.warn('child warn', { b: 2 });
    assert.deepEqual(written, ['root info', 'child warn']);
    log.level = 'debug';
    child.debug('debug now');
    assert.deepEqual(written, ['root info', 'child warn', 'debug now']);
  });

  it('still blanks secrets out of lines it writes', () => {
    const secret = 'k'.repeat(43);
    const log = createLogger('info', [secret]);
    const lines: string[] = [];
    const stderrWrite = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      log.debug(`not written ${secret}`);
      log.info(`the key is ${secret}`);
    } finally {
      process.stderr.write = stderrWrite;
    }
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]!.includes(secret));
    assert.match(lines[0]!, /the key is \[redacted\]/);
  });
});

/** The line winston would write for one entry, through the logger's own format. */
function lineOf(style: LogStyle, entry: Record<string, unknown>, secrets: readonly string[] = []): string {
  const info = lineFormat(secrets, style).transform({ ...entry, [LEVEL]: entry['level'] } as never) as Record<symbol, unknown>;
  return String(info[MESSAGE]);
}

const PRETTY: LogStyle = { format: 'pretty', color: false };
const TIME = /^\d{2}:\d{2}:\d{2}\.\d{3} /;

describe('log line formats', () => {
  it('pretty: time, the padded level, the message, then key=value on one line', () => {
    const line = lineOf(PRETTY, { level: 'info', message: 'listening on http://127.0.0.1:8080/mcp', url: 'http://127.0.0.1:8080/mcp', port: 8080, tls: false });
    assert.match(line, TIME);
    assert.equal(line.replace(TIME, ''), 'info  listening on http://127.0.0.1:8080/mcp url=http://127.0.0.1:8080/mcp port=8080 tls=false');
    assert.equal(lineOf(PRETTY, { level: 'debug', message: 'x' }).replace(TIME, ''), 'debug x');
  });

  it('pretty: quotes values with spaces, writes objects as compact JSON, and stays on one line', () => {
    const line = lineOf(PRETTY, {
      level: 'warn',
      message: 'two\nlines\u001b[31m',
      line: 'upstream said: hello world',
      empty: '',
      eq: 'a=b',
      upstreams: ['a', 'b'],
      detail: { nested: { n: 1 }, text: 'x\ny' },
      none: null,
      skipped: undefined,
      error: new Error('boom here'),
    });
    assert.ok(!line.includes('\n'), line);
    assert.ok(!line.includes('\u001b'), 'a control character a legacy server wrote reaches no terminal');
    assert.equal(
      line.replace(TIME, ''),
      'warn  two\\nlines\\u001b[31m line="upstream said: hello world" empty="" eq="a=b" upstreams=["a","b"] detail={"nested":{"n":1},"text":"x\\ny"} none=null error="boom here"',
    );
  });

  it('pretty: colors the level only when asked (a terminal), and pads by the visible level', () => {
    assert.ok(!lineOf(PRETTY, { level: 'warn', message: 'm' }).includes('\u001b'));
    const colored = lineOf({ format: 'pretty', color: true }, { level: 'warn', message: 'm', k: 'v' });
    assert.equal(colored.replace(TIME, ''), '\u001b[33mwarn\u001b[39m  m k=v');
  });

  it('json: one JSON object per line with the fields as they are', () => {
    const line = lineOf({ format: 'json', color: false }, { level: 'info', message: 'm', upstreams: ['a'], text: 'x y' });
    assert.ok(!line.includes('\n'));
    const parsed = JSON.parse(line) as Record<string, unknown>;
    assert.deepEqual({ ...parsed, timestamp: typeof parsed['timestamp'] }, { level: 'info', message: 'm', upstreams: ['a'], text: 'x y', timestamp: 'string' });
    assert.ok(!line.includes('\u001b'));
  });

  it('blanks secrets out in both formats, in the message and in fields', () => {
    const secret = 's'.repeat(43);
    for (const format of ['json', 'pretty'] as const) {
      const line = lineOf({ format, color: false }, { level: 'info', message: `key ${secret}`, line: `env KEY=${secret}` }, [secret]);
      assert.ok(!line.includes(secret), `${format}: ${line}`);
      assert.equal(line.split('[redacted]').length - 1, 2, `${format}: ${line}`);
    }
  });
});

describe('the style of stderr', () => {
  // node --test runs each file with its output piped.
  it('is JSON off a terminal unless a format is chosen; color only when FORCE_COLOR asks', { skip: process.stderr.isTTY && 'stderr is a terminal' }, () => {
    assert.deepEqual(stderrStyle(undefined, {}), { format: 'json', color: false });
    assert.deepEqual(stderrStyle('json', { FORCE_COLOR: '1' }), { format: 'json', color: false });
    assert.deepEqual(stderrStyle('pretty', {}), { format: 'pretty', color: false });
    assert.deepEqual(stderrStyle('pretty', { FORCE_COLOR: '1' }), { format: 'pretty', color: true });
    assert.deepEqual(stderrStyle('pretty', { FORCE_COLOR: '0' }), { format: 'pretty', color: false });
  });
});

/** The lines written to stderr while `run` runs. */
function stderrOf(run: () => void): string[] {
  const lines: string[] = [];
  const stderrWrite = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    run();
  } finally {
    process.stderr.write = stderrWrite;
  }
  return lines;
}

const JSON_STYLE: LogStyle = { format: 'json', color: false };
const ISO = /"timestamp":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"/;

describe('the direct info line (the access log)', () => {
  const secret = 's'.repeat(43);
  const entries: Array<Record<string, string | number | boolean | undefined>> = [
    { upstream: 'default', method: 'tools/call', target: 'echo', status: 200, durationMs: 1.234, mode: 'local', lane: 'fast', principal: '0123abcd' },
    { upstream: 'u', method: 'tools/call', code: -32602, durationMs: 0, round: 2, mode: 'held', principal: 'p', skipped: undefined },
    { upstream: 'quo"te\n\u0001 é \ud800', method: `a ${secret} b`, target: secret, durationMs: Number.NaN, ok: true, Zed: 1, level: 'x', message: 'y' },
  ];

  it("is the line winston's json format writes for the same entry", () => {
    for (const fields of entries) {
      const winstonLine = lineOf(JSON_STYLE, { ...fields, level: 'info', message: 'access' }, [secret]);
      const direct = jsonLine('info', 'access', fields, '2026-01-02T03:04:05.678Z', [secret]);
      assert.equal(direct.replace(ISO, 'T'), winstonLine.replace(ISO, 'T'));
      assert.ok(!direct.includes(secret));
    }
  });

  it('goes to stderr from a JSON-lines logger, only at info or below, and not when silent', () => {
    const log = createLogger('info', [secret]);
    const write = infoLineWriter(log);
    const lines = stderrOf(() => write('access', entries[0]!));
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, ISO);
    assert.equal(lines[0]!.replace(ISO, 'T'), `${jsonLine('info', 'access', entries[0]!, '', []).replace(/"timestamp":""/, 'T')}\n`);
    log.level = 'warn';
    assert.deepEqual(
      stderrOf(() => write('access', entries[0]!)),
      [],
    );
    log.level = 'debug';
    log.silent = true;
    assert.deepEqual(
      stderrOf(() => write('access', entries[0]!)),
      [],
    );
  });

  it('is an ordinary winston line from a logger writing pretty lines', () => {
    const log = createLogger('info', [], { format: 'pretty', color: false });
    const lines = stderrOf(() => infoLineWriter(log)('access', { upstream: 'u', status: 200 }));
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.replace(TIME, ''), 'info  access upstream=u status=200\n');
  });
});
