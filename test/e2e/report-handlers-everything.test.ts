// The official everything server taken through the migration path: trigger-elicitation-request
// (a rich form) and trigger-sampling-request audited with --audit-questions, the TypeScript server
// generated, built, started and shadowed: the same rounds and questions. get-roots-list reads the
// roots the session was given and asks nothing in its call (migration-drives.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditWithQuestions, buildTypescript, fillTypescriptStubs, generate, questionFlow, shadowAgainst, startTypescript } from '../support/migrated.js';
import { driveEverything, EVERYTHING_ASKING as ASKING, EVERYTHING_SERVER as SERVER, ONE_SESSION } from '../support/migration-drives.js';
import type { Running } from '../support/processes.js';
import { ALL_CAPS, rpc } from '../support/rpc.js';

describe('report --handlers --lang ts over the everything server', () => {
  let dir: string;
  let stdout: string;
  let server: Running & { url: string };
  before(async () => {
    const audit = await auditWithQuestions(SERVER, driveEverything, ONE_SESSION);
    ({ dir, stdout } = generate(audit, SERVER));
    fillTypescriptStubs(dir);
    buildTypescript(dir);
    server = await startTypescript(dir);
  });
  after(async () => {
    await server?.stop();
  });

  it('writes a handler for each asking tool, the rich form and the sampling parameters as the server wrote them', () => {
    assert.match(stdout, /2 migrated handler\(s\)/);
    const elicit = readFileSync(join(dir, 'src', 'tools', 'trigger-elicitation-request.ts'), 'utf8');
    assert.match(elicit, /"email":\{[^}]*"format":"email"/);
    const sampling = readFileSync(join(dir, 'src', 'tools', 'trigger-sampling-request.ts'), 'utf8');
    assert.match(
      sampling,
      /inputRequired\.createMessage\(\{ systemPrompt: ".+", maxTokens: 10, temperature: 0\.7, messages: samplingMessages\("sampling", args, answers\) \}\)/,
    );
  });

  it('answers server/discover', async () => {
    const d = await rpc(server.url, 'server/discover', {}, { caps: ALL_CAPS });
    assert.deepEqual(d.body.result?.['supportedVersions'], ['2026-07-28']);
  });

  it('asks what the legacy server asked: the same rounds and questions for every call', async () => {
    const { records, counts } = await shadowAgainst(SERVER, server.url, { tools: ASKING, methods: [] }, 2, driveEverything, ONE_SESSION);
    assert.deepEqual(counts, { match: 0, differ: 2, candidate_error: 0, skipped: 0 });
    const flows = records.map(questionFlow);
    for (const f of flows) assert.deepEqual(f.questions, [], `${f.target}: no question extra or missing`);
    assert.deepEqual(
      flows.map((f) => `${f.target} ${f.rounds}`).sort(),
      ASKING.map((t) => `${t} 1/1`),
    );
  });
});
