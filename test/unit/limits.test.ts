// The limits table drives the file schema, the flags, the defaults and the --help rows; the option
// table of docs/configuration.md and the annotated example quote it. Every test here loops over
// the table, so a new row is covered.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HELP, HELP_WIDTH, limitHelp } from '../../src/cli/help.js';
import { REPORT_HELP } from '../../src/cli/report.js';
import { DEFAULT_TASK_BOUNDS } from '../../src/bridge/tasks/task-bounds.js';
import { limits, loadConfigFile } from '../../src/config/file.js';
import { defaultFor, LIMIT_ROWS, LIMITS, metavarOf, scaleOf, type LimitRow } from '../../src/config/limits.js';
import { resolveCli } from '../../src/config/resolve.js';
import type { UpstreamConfig, UpstreamLimits } from '../../src/config/types.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { DEFAULT_CALLS_PER_SESSION } from '../../src/upstream/pool/lease.js';
import { writeConfig } from '../support/config.js';

const CMD = ['--', 'node', 'server.js'];
const repoFile = (name: string) => readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8');

function only(argv: readonly string[]): UpstreamConfig {
  const r = resolveCli(argv, {});
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  return r.config.upstreams[0]!;
}

function rejects(run: () => unknown, message: string): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    assert.equal(err.message, message);
    return true;
  });
}

/** A file with one upstream `a`; the limit is set on the upstream or under `defaults:`. */
function fileWith(row: LimitRow, value: number, where: 'upstream' | 'defaults'): string {
  const line = `${row.key}: ${value}`;
  return where === 'upstream'
    ? writeConfig(`upstreams:\n  a:\n    stdio: { command: node }\n    ${line}\n`)
    : writeConfig(`defaults:\n  ${line}\nupstreams:\n  a:\n    stdio: { command: node }\n`);
}

describe('the limits table', () => {
  it('is well formed: unique keys, flags and fields; integer ranges holding the default', () => {
    for (const column of ['key', 'flag', 'option', 'field'] as const) {
      const values = LIMIT_ROWS.map((r) => r[column]);
      assert.equal(new Set(values).size, values.length, `${column}s are unique`);
    }
    for (const r of LIMIT_ROWS) {
      assert.equal(r.flag, `--${r.option}`);
      for (const n of [r.min, r.max, r.default]) assert.ok(Number.isSafeInteger(n), `${r.key}: ${n} is an integer`);
      assert.ok(r.min <= r.default && r.default <= r.max, `${r.key}: ${r.min} <= ${r.default} <= ${r.max}`);
      assert.ok(r.help.trim() !== '' && !r.help.includes('(default'), `${r.key}: help text without the default`);
    }
  });

  it('has one row per UpstreamLimits field, in the table order', () => {
    assert.deepEqual(
      Object.keys(limits({}, 'network')),
      LIMIT_ROWS.map((r) => r.field),
    );
  });

  it('gives the defaults, scaled to milliseconds where the unit is seconds', () => {
    const fromFlags = only(CMD);
    const fromFile = loadConfigFile(writeConfig('upstreams:\n  a:\n    stdio: { command: node }\n'), {}).upstreams[0]!;
    const fromHttpFlag = only(['--upstream', 'http://127.0.0.1:9/mcp']);
    const fromHttpFile = loadConfigFile(writeConfig('upstreams:\n  a:\n    http: { url: "http://127.0.0.1:9/mcp" }\n'), {}).upstreams[0]!;
    for (const r of LIMIT_ROWS) {
      const stdio = defaultFor(r, 'stdio') * scaleOf(r);
      const network = r.default * scaleOf(r);
      assert.equal(limits({}, 'stdio')[r.field], stdio, r.key);
      assert.equal(limits({}, 'http')[r.field], network, r.key);
      assert.equal(fromFlags[r.field], stdio, `${r.flag} left out`);
      assert.equal(fromFile[r.field], stdio, `${r.key} left out of the file`);
      assert.equal(fromHttpFlag[r.field], network, `${r.flag} left out, HTTP upstream`);
      assert.equal(fromHttpFile[r.field], network, `${r.key} left out of the file, HTTP upstream`);
    }
  });

  it('sizes --max-sessions by transport: 256 network sessions, 16 stdio processes', () => {
    assert.equal(LIMITS.maxSessions.default, 256);
    assert.equal(defaultFor(LIMITS.maxSessions, 'stdio'), 16);
    assert.equal(defaultFor(LIMITS.maxSessions, 'websocket'), 256);
    assert.match(HELP, /--max-sessions N[\s\S]*\(default 256 for an HTTP, SSE or WebSocket upstream, 16 for stdio\)/);
  });

  // The pool and the task table sit below config/ in the data path and cannot read the table: their
  // fallbacks are written out there, and must be the table's defaults.
  it("is what the pool's and the task table's own fallbacks say", () => {
    assert.equal(DEFAULT_CALLS_PER_SESSION, LIMITS.callsPerSession.default, 'upstream/pool/lease.ts');
    assert.deepEqual(
      DEFAULT_TASK_BOUNDS,
      {
        maxResultBytes: LIMITS.maxTaskResultBytes.default,
        maxFinished: LIMITS.maxFinishedTasks.default,
        maxFinishedBytes: LIMITS.maxFinishedTaskBytes.default,
      },
      'bridge/tasks/task-bounds.ts',
    );
  });
});

describe('each limit, in the file and on the command line', () => {
  for (const r of LIMIT_ROWS) {
    const scale = scaleOf(r);

    it(`${r.key} in the file accepts ${r.min}..${r.max} and rejects values outside, with the table's range`, () => {
      for (const where of ['upstream', 'defaults'] as const) {
        const at = where === 'upstream' ? `upstreams.a.${r.key}` : `defaults.${r.key}`;
        for (const ok of [r.min, r.max]) {
          assert.equal(loadConfigFile(fileWith(r, ok, where), {}).upstreams[0]![r.field], ok * scale, `${at}: ${ok}`);
        }
        const high = fileWith(r, r.max + 1, where);
        rejects(() => loadConfigFile(high, {}), `${high}: ${at}: Too big: expected number to be <=${r.max}`);
        const low = fileWith(r, r.min - 1, where);
        rejects(() => loadConfigFile(low, {}), `${low}: ${at}: Too small: expected number to be >=${r.min}`);
      }
    });

    it(`${r.flag} accepts ${r.min}..${r.max} and rejects values outside, with the table's range`, () => {
      for (const ok of [r.min, r.max]) assert.equal(only([`${r.flag}=${ok}`, ...CMD])[r.field], ok * scale);
      rejects(() => resolveCli([r.flag, String(r.max + 1), ...CMD], {}), `${r.flag}: ${r.max + 1} is out of range (${r.min} to ${r.max})`);
      if (r.min > 0) rejects(() => resolveCli([r.flag, String(r.min - 1), ...CMD], {}), `${r.flag}: ${r.min - 1} is out of range (${r.min} to ${r.max})`);
    });

    it(`${r.flag} overrides ${r.key} from the file`, () => {
      const [inFile, onFlag] = [r.min, r.max];
      const path = fileWith(r, inFile, 'defaults');
      const upstream = only(['--config', path, r.flag, String(onFlag)]);
      assert.equal(upstream[r.field], onFlag * scale);
      // The other limits keep their defaults.
      const others = Object.entries(upstream).filter(([k]) => k !== r.field && LIMIT_ROWS.some((x) => x.field === k));
      for (const [k, v] of others) assert.equal(v, limits({}, 'stdio')[k as keyof UpstreamLimits], k);
    });
  }
});

describe('--help and the documentation', () => {
  const lines = HELP.split('\n');

  it('fits every line of --help and report --help in 100 columns', () => {
    const wide = [...lines, ...REPORT_HELP.split('\n')].filter((l) => l.length > HELP_WIDTH);
    assert.deepEqual(wide, []);
  });
  const defaultText = (r: LimitRow) =>
    r.stdioDefault === undefined ? `(default ${r.default})` : `(default ${r.default} for an HTTP, SSE or WebSocket upstream, ${r.stdioDefault} for stdio)`;

  it('lists every row: flag, unit, help text and default, in the table order', () => {
    let from = lines.findIndex((l) => l.startsWith('  --state-key '));
    for (const r of LIMIT_ROWS) {
      const synopsis = `  ${r.flag} ${metavarOf(r)}`;
      const row = lines.findIndex((l, i) => i > from && (l === synopsis || l.startsWith(`${synopsis} `)));
      assert.ok(row > from, `--help has a row for ${r.flag} after the previous limit`);
      // A flag too long for the column stands alone; its description starts on the next line.
      const at = lines[row] === synopsis ? row + 1 : row;
      const words = (t: string) => t.replace(/\s+/g, ' ').trim();
      const firstWords = words(r.help).split(' ').slice(0, 2).join(' ');
      assert.ok(lines[at]!.includes(` ${firstWords}`), lines[at]);
      assert.ok(words(limitHelp(r)).includes(words(`${r.help} ${defaultText(r)}`)), limitHelp(r));
      assert.ok(HELP.includes(limitHelp(r)), `--help includes the whole ${r.flag} entry`);
      assert.ok(limitHelp(r).replace(/\s+/g, ' ').trimEnd().endsWith(defaultText(r)), limitHelp(r));
      from = at;
    }
    assert.ok(lines.findIndex((l) => l.startsWith('  --root ')) > from, 'the limits come before --root');
  });

  it('aligns the limit rows with the other options', () => {
    const column = (l: string) => l.search(/\S/);
    const descriptionAt = lines.find((l) => l.startsWith('  --host '))!.indexOf('address');
    for (const r of LIMIT_ROWS) {
      const all = limitHelp(r).trimEnd().split('\n');
      // A flag too long for the column stands on its own line, the description below it.
      const [first, ...rest] = all[0]!.trim() === `${r.flag} ${metavarOf(r)}` ? all.slice(1) : all;
      assert.ok(first!.slice(descriptionAt).startsWith(r.help.split(/[\n ]/)[0]!) && first![descriptionAt - 1] === ' ', r.flag);
      for (const l of rest) assert.equal(column(l), descriptionAt, r.flag);
    }
  });

  it('the option table of docs/configuration.md and config/proxy.yaml quote every row with its default', () => {
    const table = repoFile('docs/configuration.md');
    const example = repoFile('config/proxy.yaml');
    for (const r of LIMIT_ROWS) {
      assert.ok(table.includes(`| \`${r.flag} ${metavarOf(r)}\` | \`${r.default}\` |`), `docs/configuration.md documents ${r.flag} (default ${r.default})`);
      // A default that depends on the transport is shown commented out: set, it would apply to every upstream.
      const listed = r.stdioDefault === undefined ? `^  ${r.key}: ${r.default}\\b` : `^  # ${r.key}: ${r.default}\\b.*\n.*${r.stdioDefault} for stdio`;
      assert.match(example, new RegExp(listed, 'm'), `config/proxy.yaml lists ${r.key}: ${r.default}`);
    }
  });
});
