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

/** Installs stack `name` unless it is already; says why not when python3 or the wheels are missing. */
function install(name, python) {
  const dir = `${root}.cache/py-${name}`;
  const stamp = `${dir}/mrtr-stack.txt`;
  const wanted = STACKS[name].join(' ');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  const missing = !python ? 'no python3 on PATH' : !existsSync(wheels) ? `no wheels at ${wheels} (set MRTR_WHEELS)` : undefined;
  if (missing) {
    console.error(`python-stacks: ${missing}; the tests that need ${wanted} will be SKIPPED`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
  console.error(`python-stacks: installing ${wanted} into .cache/py-${name}`);
  try {
    execFileSync(python, ['-m', 'venv', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync(`${dir}/bin/pip`, ['install', '-q', '--no-index', '--find-links', wheels, ...STACKS[name]], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1' },
    });
  } catch (err) {
    // No venv module, or a wheel missing: no half-made venv is left, so its tests are SKIPPED (not failed).
    rmSync(dir, { recursive: true, force: true });
    console.error(`python-stacks: could not install ${wanted} (${err.message.split('\n')[0]}); the tests that need it will be SKIPPED`);
    return;
  }
  writeFileSync(stamp, wanted);
}

const python = python3();
const asked = process.argv.slice(2);
for (const name of asked.length > 0 ? asked : Object.keys(STACKS)) {
  if (!(name in STACKS)) {
    console.error(`python-stacks: no stack ${name}; known: ${Object.keys(STACKS).join(', ')}`);
    process.exit(2);
  }
  install(name, python);
}
