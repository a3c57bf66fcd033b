// The README is a newcomer's first read: short, the two-command quick start first, and only flags
// that exist; every option with its default is in docs/configuration.md (test/unit/limits.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HELP } from '../../src/cli/help.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const CONFIGURATION = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
const MAX_LINES = 230;

describe('README.md', () => {
  it(`stays within ${MAX_LINES} lines, the quick start before anything else`, () => {
    assert.ok(README.split('\n').length <= MAX_LINES, `${README.split('\n').length} lines`);
    assert.equal(README.indexOf('\n## '), README.indexOf('\n## Quick start'), 'Quick start is the first section');
    assert.match(README, /^npm install && npm start\b/m);
    assert.match(README, /^npm install && npm test\b/m);
  });

  it('names only options that --help lists, and links to the table of every option', () => {
    const named = new Set([...README.matchAll(/`(--[a-z][a-z-]*)/g)].map((m) => m[1]!));
    for (const flag of named) assert.ok(HELP.includes(flag), `${flag} is an option`);
    assert.match(README, /\(docs\/configuration\.md#command-line-options\)/);
    const options = README.slice(README.indexOf('## Options'), README.indexOf('\n## ', README.indexOf('## Options')));
    for (const m of options.matchAll(/`(--[a-z][a-z-]*)/g)) assert.ok(CONFIGURATION.includes(`\`${m[1]}`), `docs/configuration.md documents ${m[1]}`);
  });
});
