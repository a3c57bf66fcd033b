// The official everything server taken through the migration path, in TypeScript and in Python
// (mcp 2.3.0; skipped loudly without its stack): trigger-elicitation-request (a rich form),
// trigger-sampling-request and get-roots-list audited with --audit-questions, the server generated,
// built, started and shadowed: the same rounds and questions for every call. everything asks for the
// roots at initialize, so get-roots-list asks nothing in its call through the proxy, which asks the
// caller in a roots round first; its result names those roots, so its handler asks for them in
// round 1, and the shadow matches that round with the proxy's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ShadowRecord } from '../../src/audit/shadow-record.js';
import {
  auditWithQuestions,
  buildTypescript,
  checkPython,
  fillPythonStubs,
  fillTypescriptStubs,
  generate,
  questionFlow,
  shadowAgainst,
  startPython,
  startTypescript,
} from '../support/migrated.js';
import {
  driveEverything,
  EVERYTHING_ASKING as ASKING,
  EVERYTHING_READS_ROOTS as READS_ROOTS,
  EVERYTHING_SERVER as SERVER,
  ONE_SESSION,
} from '../support/migration-drives.js';
import { PROXY_BIN, type Running } from '../support/processes.js';
import { pythonWithMcp2 } from '../support/python.js';
import { ALL_CAPS, rpc } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const py = pythonWithMcp2();
const skipPython = skipOrFail('the Python half of test/e2e/report-handlers-everything.test.ts', 'skip' in py && py.skip);

// One audit serves every test here: auditing starts everything and drives four calls.
let audited: Promise<string> | undefined;
const audit = () => (audited ??= auditWithQuestions(SERVER, driveEverything, ONE_SESSION));

/** The shadow run against `url`: every asking tool compared once, none with a question extra or missing. */
async function expectSameFlow(url: string): Promise<ShadowRecord[]> {
  const { records, counts } = await shadowAgainst(SERVER, url, { tools: ASKING, methods: [] }, ASKING.length, driveEverything, ONE_SESSION);
  // Every comparison differs in content only: the finish stubs return a fixed text.
  assert.deepEqual(counts, { match: 0, differ: ASKING.length, candidate_error: 0, skipped: 0 }, JSON.stringify(records));
  const flows = records.map(questionFlow);
  for (const f of flows) assert.deepEqual(f.questions, [], `${f.target}: no question extra or missing`);
  assert.deepEqual(
    flows.map((f) => `${f.target} ${f.rounds}`).sort(),
    ASKING.map((t) => `${t} 1/1`),
  );
  // get-roots-list's round 1 is the proxy's roots round; the other tools read no roots and never asked for them.
  assert.deepEqual(
    records.map((r) => `${r.target} ${r.rootsRound}`).sort(),
    ASKING.map((t) => `${t} ${READS_ROOTS.includes(t) ? 'answered' : 'unused'}`),
  );
  return records;
}

describe('report --handlers --lang ts over the everything server', () => {
  let dir: string;
  let stdout: string;
  let server: Running & { url: string };
  before(async () => {
    ({ dir, stdout } = generate(await audit(), SERVER));
    fillTypescriptStubs(dir);
    buildTypescript(dir);
    server = await startTypescript(dir);
  });
  after(async () => {
    await server?.stop();
  });

  it('writes a handler for each asking tool, the rich form and the sampling parameters as the server wrote them', () => {
    assert.match(stdout, /3 migrated handler\(s\)/);
    const elicit = readFileSync(join(dir, 'src', 'tools', 'trigger-elicitation-request.ts'), 'utf8');
    assert.match(elicit, /"email":\{[^}]*"format":"email"/);
    const sampling = readFileSync(join(dir, 'src', 'tools', 'trigger-sampling-request.ts'), 'utf8');
    assert.match(
      sampling,
      /inputRequired\.createMessage\(\{ "systemPrompt": ".+", "maxTokens": 10, "temperature": 0\.7, messages: samplingMessages\("sampling", args, answers\) \}\)/,
    );
    assert.doesNotMatch(elicit + sampling, /listRoots/, 'tools whose results never named the roots do not ask for them');
  });

  it('asks get-roots-list for the roots in round 1, the roots everything reads at initialize, and says why', () => {
    const roots = readFileSync(join(dir, 'src', 'tools', 'get-roots-list.ts'), 'utf8');
    assert.match(
      roots,
      /\/\/ Round 1\.\n {2}if \(!answered\(answers, \["roots"\]\)\) \{\n {4}return ask\(ctx, ID, answers, \{\n(?: {6}\/\/ .*\n)+ {6}"roots": inputRequired\.listRoots\(\),/,
    );
    assert.match(stdout, /tool get-roots-list: asks for the roots first \(its result named the caller's roots in 1 of 1 audited call\(s\)\)/);
    assert.match(readFileSync(join(dir, 'src', 'not-migrated.ts'), 'utf8'), /"tools":\[[^\]]*"echo"/, 'echo named no roots: not migrated');
  });

  it('answers server/discover', async () => {
    const d = await rpc(server.url, 'server/discover', {}, { caps: ALL_CAPS });
    assert.deepEqual(d.body.result?.['supportedVersions'], ['2026-07-28']);
  });

  it('asks what the legacy server asked: the same rounds and questions for every call', async () => {
    await expectSameFlow(server.url);
  });
});

describe('report --roots-tools over the everything server', () => {
  const run = async (names: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'migrated-roots-tools-'));
    const args = ['report', '--audit', await audit(), '--handlers', dir, '--lang', 'ts', '--roots-tools', names, '--', ...SERVER];
    return { dir, ...spawnSync(process.execPath, [PROXY_BIN, ...args], { encoding: 'utf8', timeout: 60_000 }) };
  };

  it('refuses a name that is no audited tool, naming the audited ones', async () => {
    const r = await run('echo,get-sum');
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stderr,
      /--roots-tools: 'get-sum' is not an audited tool \(audited: echo, get-roots-list, trigger-elicitation-request, trigger-sampling-request\)/,
    );
  });

  it('gives a named tool a handler that asks for the roots first', async () => {
    const r = await run('echo');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /tool echo: asks for the roots first \(named by --roots-tools\)/);
    assert.match(readFileSync(join(r.dir, 'src', 'tools', 'echo.ts'), 'utf8'), /"roots": inputRequired\.listRoots\(\),/);
  });
});

describe('report --handlers --lang py over the everything server', { skip: skipPython }, () => {
  let server: Running & { url: string };
  let dir: string;
  before(async () => {
    ({ dir } = generate(await audit(), SERVER, 'py'));
    fillPythonStubs(dir);
    checkPython('python' in py ? py.python : '', dir);
    server = await startPython('python' in py ? py.python : '', dir);
  });
  after(async () => {
    await server?.stop();
  });

  it('asks get-roots-list for the roots in round 1', () => {
    assert.match(
      readFileSync(join(dir, 'handlers', 'tools', 'get_roots_list.py'), 'utf8'),
      /# Round 1\.\n.*\n.*\n(?: +# .*\n)+ +"roots": \{"method": "roots\/list"\},/,
    );
  });

  it('starts and answers server/discover', async () => {
    const d = await rpc(server.url, 'server/discover', {}, { caps: ALL_CAPS });
    assert.deepEqual(d.body.result?.['supportedVersions'], ['2026-07-28']);
  });

  it('asks what the legacy server asked: the same rounds and questions for every call', async () => {
    await expectSameFlow(server.url);
  });
});
