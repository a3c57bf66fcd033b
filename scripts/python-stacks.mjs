#!/usr/bin/env node
// Installs the Python MCP stacks the compatibility suite runs (test/support/python.ts) into venvs
// under .cache, from wheels only: no Python package index is assumed reachable. The wheels, with
// every dependency, are looked for in $MRTR_WHEELS or ../shared/wheels (beside the clone). Without
// python3 or the wheels it says so and exits 0: the tests that need a stack print SKIPPED lines.
//
//   node scripts/python-stacks.mjs          (npm test's pretest does this)
//   node scripts/python-stacks.mjs fastmcp2 (one stack only)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Each venv and what goes in it; test/support/python.ts knows the same names. */
const STACKS = {
  fastmcp2: ['fastmcp==2.13.3'],
  mcp1: ['mcp==1.29.0', 'mcp-server-time==0.6.2', 'mcp-server-git==0.6.2'],
  mcp2: ['mcp==2.3.0'],
  fastmcp4: ['fastmcp==4.0.10'],
};
const wheels = process.env.MRTR_WHEELS ?? `${root}../shared/wheels`;

function python3() {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return 'python3';
  } catch {
    return undefined;
  }
}

function install(name, python) {
  const dir = `${root}.cache/py-${name}`;
  const stamp = `${dir}/mrtr-stack.txt`;
  const wanted = STACKS[name].join(' ');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  rmSync(dir, { recursive: true, force: true });
  console.error(`python-stacks: installing ${wanted} into .cache/py-${name}`);
  execFileSync(python, ['-m', 'venv', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(`${dir}/bin/pip`, ['install', '-q', '--no-index', '--find-links', wheels, ...STACKS[name]], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1' },
  });
  writeFileSync(stamp, wanted);
}

const python = python3();
if (!python) {
  console.error('python-stacks: no python3 on PATH; the Python compatibility tests will be SKIPPED');
  process.exit(0);
}
if (!existsSync(wheels)) {
  console.error(`python-stacks: no wheels at ${wheels} (set MRTR_WHEELS); the Python compatibility tests will be SKIPPED`);
  process.exit(0);
}
const asked = process.argv.slice(2);
for (const name of asked.length > 0 ? asked : Object.keys(STACKS)) {
  if (!(name in STACKS)) {
    console.error(`python-stacks: no stack ${name}; known: ${Object.keys(STACKS).join(', ')}`);
    process.exit(2);
  }
  install(name, python);
}
