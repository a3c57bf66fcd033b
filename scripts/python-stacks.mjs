#!/usr/bin/env node
// Installs the Python MCP stacks the compatibility suite runs (test/support/python.ts) into venvs
// under .cache, from wheels only: no Python package index is assumed reachable. The wheels, with
// every dependency, are looked for in $MRTR_WHEELS or ../shared/wheels (beside the clone). Without
// python3 or the wheels it says so and exits 0: the tests that need a stack print SKIPPED lines.
//
//   node scripts/python-stacks.mjs          (npm test does this before its tests)
//   node scripts/python-stacks.mjs fastmcp2 (one stack only)
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
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

/**
 * Installs stack `name` unless it is already; says why not when python3 or the wheels are missing.
 * The venv gets no pip of its own (ensurepip would take as long as the install): the machine's pip
 * installs into it (`pip --python`, pip 22.3 and later); an older pip gets a venv with its own.
 */
async function install(name, python) {
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
  const pipArgs = ['install', '-q', '--no-index', '--find-links', wheels, ...STACKS[name]];
  const pipEnv = { ...process.env, PIP_CONFIG_FILE: '/dev/null', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
  try {
    if (pipTargetsOtherPythons(python)) {
      await run(python, ['-m', 'venv', '--without-pip', dir]);
      await run(python, ['-m', 'pip', '--python', `${dir}/bin/python`, ...pipArgs], pipEnv);
    } else {
      await run(python, ['-m', 'venv', dir]);
      await run(`${dir}/bin/pip`, pipArgs, pipEnv);
    }
  } catch (err) {
    // No venv module, or a wheel missing: no half-made venv is left, so its tests are SKIPPED (not failed).
    rmSync(dir, { recursive: true, force: true });
    console.error(`python-stacks: could not install ${wanted} (${err.message.split('\n')[0]}); the tests that need it will be SKIPPED`);
    return;
  }
  writeFileSync(stamp, wanted);
}

/** Runs a command, its stderr shown; rejects when it fails. */
async function run(command, args, env = process.env) {
  await promisify(execFile)(command, args, { env, maxBuffer: 16 * 1024 * 1024 }).then(({ stderr }) => stderr && process.stderr.write(stderr));
}

/** Whether python3's own pip can install into another interpreter's environment (`--python`). */
function pipTargetsOtherPythons(python) {
  try {
    const [major, minor] = execFileSync(python, ['-m', 'pip', '--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split(' ')[1]
      .split('.')
      .map(Number);
    return major > 22 || (major === 22 && minor >= 3);
  } catch {
    return false;
  }
}

const python = python3();
const asked = process.argv.slice(2);
for (const name of asked) {
  if (!(name in STACKS)) {
    console.error(`python-stacks: no stack ${name}; known: ${Object.keys(STACKS).join(', ')}`);
    process.exit(2);
  }
}
// The stacks are independent venvs: they install side by side.
await Promise.all((asked.length > 0 ? asked : Object.keys(STACKS)).map((name) => install(name, python)));
