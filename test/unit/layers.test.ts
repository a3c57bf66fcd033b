// The source tree reads as the data path, and imports only go down it: each folder of src/ may
// import the folders listed for it here and nothing else. A new import that climbs fails this test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../support/processes.js';

/** Folder -> the folders it may import (besides itself). Top-level files of src/ are `base`. */
const ALLOWED: Record<string, readonly string[]> = {
  base: [],
  protocol: [],
  telemetry: [],
  state: ['base', 'protocol'],
  config: ['base', 'protocol', 'telemetry'],
  upstream: ['base', 'protocol', 'telemetry', 'config'],
  bridge: ['base', 'protocol', 'telemetry', 'state'],
  auth: ['base', 'protocol', 'telemetry', 'config', 'state'],
  routing: ['config', 'protocol'],
  audit: ['base', 'protocol', 'telemetry', 'config'],
  report: ['base', 'protocol', 'telemetry', 'config', 'upstream', 'audit'],
  shadow: ['base', 'protocol', 'telemetry', 'config', 'upstream', 'audit'],
  relay: ['base', 'protocol', 'telemetry', 'config', 'upstream', 'routing'],
  front: ['base', 'protocol', 'telemetry', 'config', 'state', 'auth', 'upstream', 'bridge', 'routing', 'relay', 'audit'],
  app: ['base', 'protocol', 'telemetry', 'config', 'state', 'auth', 'upstream', 'bridge', 'routing', 'relay', 'front', 'audit', 'shadow'],
  cli: ['base', 'protocol', 'telemetry', 'config', 'state', 'auth', 'app', 'front', 'audit', 'report'],
  /** src/index.ts, the package's entry point: the library API in app/. */
  entry: ['app'],
};

const SRC = join(ROOT, 'src');

/** Past this many lines a file must be listed in LONG_FILES. */
const LONG_LINES = 400;

/** The files past LONG_LINES lines, each with the one idea it holds. */
const LONG_FILES: Record<string, string> = {
  'bench/cases/chaos.ts': 'one chaos run: the cluster, its load, its faults and the verdict on each guarantee',
  'src/bridge/interaction.ts': 'one interactive legacy call and what it asked for, until its outcome',
  'src/bridge/tasks/task-table.ts': "one upstream's tasks on this instance and their sealed ids",
  'src/upstream/session.ts': 'one legacy session: the v1 client, its calls and where their requests go',
  'test/unit/hosted-task.test.ts': "the proxy's own tasks around plain calls, on one instance and across instances",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** TypeScript and JavaScript files under dir, skipping node_modules and fetched code (`.cache`, e.g. bench/.cache). */
function code(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'node_modules' || e.name === '.cache'
        ? []
        : code(join(dir, e.name))
      : /\.(ts|mjs|js)$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

function layerOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts.length === 1) return parts[0] === 'index.ts' ? 'entry' : 'base';
  return parts[0]!;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => resolve(dirname(file), m[1]!));
}

describe('source layers', () => {
  const files = sources(SRC);

  it('puts every source file in a known layer', () => {
    for (const f of files) assert.ok(layerOf(f) in ALLOWED, `${relative(ROOT, f)} is in no known layer`);
  });

  it('has no import from a lower layer to a higher one', () => {
    const climbing: string[] = [];
    for (const f of files) {
      const from = layerOf(f);
      for (const target of importsOf(f)) {
        const to = layerOf(target);
        if (to !== from && !ALLOWED[from]!.includes(to)) climbing.push(`${relative(SRC, f)} -> ${relative(SRC, target)}`);
      }
    }
    assert.deepEqual(climbing, []);
  });

  it('writes JSON-RPC error codes only in protocol/errors.ts', () => {
    const offenders: string[] = [];
    for (const f of files) {
      if (f.endsWith(join('protocol', 'errors.ts'))) continue;
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$|^\s*\*.*$|^\s*\/\*.*$/, '');
          if (/-32\d{3}\b|jsonrpc: '2\.0', id\b.*error:/.test(code)) offenders.push(`${relative(SRC, f)}:${i + 1}`);
        });
    }
    assert.deepEqual(offenders, []);
  });

  it('uses no AsyncLocalStorage or async hook (on Node 20 a promise hook for every promise: telemetry/front-request.ts)', () => {
    const users = files.filter((f) => /from ['"](node:)?async_hooks['"]/.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    assert.deepEqual(users, []);
  });

  // A file is one idea, whatever its length: no hard cap (cutting a concept into slivers to meet
  // one reads worse). Past 400 lines a file often holds two ideas, so one that long is a decision
  // written down here, with the one idea it holds; a listed file back under the line leaves the list.
  it('lets a file of src, test, bench, examples or scripts past 400 lines only with the one idea it holds', () => {
    const all = ['src', 'test', 'bench', 'examples', 'scripts'].flatMap((d) => code(join(ROOT, d)));
    assert.ok(all.length > files.length, 'the other trees were found');
    const long = all.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, lines]) => lines > LONG_LINES);
    assert.deepEqual(
      long.filter(([f]) => !(f in LONG_FILES)).map(([f, lines]) => `${f} has ${lines} lines: split it, or list the one idea it holds in LONG_FILES`),
      [],
    );
    const listed = new Set(long.map(([f]) => f));
    assert.deepEqual(
      Object.keys(LONG_FILES).filter((f) => !listed.has(f)),
      [],
      'files in LONG_FILES that are no longer past the line (take them off the list)',
    );
  });
});

// The unit ring runs its files side by side and must stay fast and deterministic: whatever starts a
// process or opens a socket is an e2e test.
describe('the unit ring', () => {
  const UNIT = join(ROOT, 'test', 'unit');
  const units = readdirSync(UNIT)
    .filter((n) => n.endsWith('.test.ts'))
    .map((n) => join(UNIT, n));
  const IO_MODULE = /from ['"](node:)?(child_process|net|http|https|http2|dgram|tls|worker_threads|cluster)['"]/;
  const IO_SUPPORT = /from ['"]\.\.\/support\/(auth-server|otlp-receiver|ports|process-tree)\.js['"]/;
  const STARTER = /\b(startProcess|startProxy|startHttpFixture)\(/;

  it('starts no process and opens no socket', () => {
    assert.ok(units.length > 50, 'the unit tests were found');
    const offenders = units.filter((f) => {
      const text = readFileSync(f, 'utf8');
      return IO_MODULE.test(text) || IO_SUPPORT.test(text) || STARTER.test(text);
    });
    assert.deepEqual(
      offenders.map((f) => relative(ROOT, f)),
      [],
    );
  });
});
