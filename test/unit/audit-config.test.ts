// The audit options: --audit FILE, --audit-max-bytes, --audit-content and `audit:` in the file.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveCli } from '../../src/config/resolve.js';
import * as D from '../../src/config/defaults.js';
import type { ProxyConfig } from '../../src/config/types.js';

const CMD = ['--', 'node', 'server.js'];

function config(argv: readonly string[]): ProxyConfig {
  const r = resolveCli(argv, {});
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  return r.config;
}

function fileWith(yaml: string): string {
  const f = join(mkdtempSync(join(tmpdir(), 'audit-config-')), 'proxy.yaml');
  writeFileSync(f, `${yaml}\nupstreams:\n  a:\n    stdio: {command: node}\n`);
  return f;
}

describe('audit configuration', () => {
  it('is off by default', () => {
    assert.equal(config(CMD).audit, undefined);
  });

  it('takes a file, a size and the content switch from flags', () => {
    assert.deepEqual(config(['--audit', '/tmp/a.jsonl', ...CMD]).audit, {
      file: '/tmp/a.jsonl',
      maxBytes: D.DEFAULT_AUDIT_MAX_BYTES,
      content: false,
      questions: false,
    });
    assert.deepEqual(config(['--audit', 'a', '--audit-max-bytes', '4096', '--audit-content', ...CMD]).audit, {
      file: 'a',
      maxBytes: 4096,
      content: true,
      questions: false,
    });
    assert.equal(config(['--audit', 'a', '--audit-questions', ...CMD]).audit?.questions, true);
  });

  it('refuses size or content without a file, and sizes that are not whole numbers or too small', () => {
    assert.throws(() => config(['--audit-content', ...CMD]), /--audit-content needs --audit FILE/);
    assert.throws(() => config(['--audit-questions', ...CMD]), /--audit-questions needs --audit FILE/);
    assert.throws(() => config(['--audit-max-bytes', '5000', ...CMD]), /--audit-max-bytes needs --audit FILE/);
    assert.throws(() => config(['--audit', 'a', '--audit-max-bytes', '1k', ...CMD]), /--audit-max-bytes: expected a whole number/);
    assert.throws(() => config(['--audit', 'a', '--audit-max-bytes', '10', ...CMD]), /--audit-max-bytes: 10 is out of range/);
    assert.throws(() => config(['--audit=', ...CMD]), /--audit: empty file name/);
  });

  it('reads `audit:` from the configuration file; flags override it', () => {
    const f = fileWith('audit: {file: /tmp/from-file.jsonl, maxBytes: 2048, content: true, questions: true}');
    assert.deepEqual(config(['--config', f]).audit, { file: '/tmp/from-file.jsonl', maxBytes: 2048, content: true, questions: true });
    assert.deepEqual(config(['--config', f, '--audit', 'flag.jsonl', '--audit-max-bytes', '9999']).audit, {
      file: 'flag.jsonl',
      maxBytes: 9999,
      content: true,
      questions: true,
    });
    assert.throws(() => config(['--config', fileWith('audit: {file: x, rotate: 1}')]), /audit: Unrecognized key/);
    assert.throws(() => config(['--config', fileWith('audit: {maxBytes: 2048}')]), /audit\.file/);
  });
});
