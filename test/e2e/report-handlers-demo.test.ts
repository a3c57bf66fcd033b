// The demo server taken through the migration path: its asking tools audited with
// --audit-questions (book_table once accepted, once declined at the first question), the
// TypeScript server generated with both branches of book_table, built, started, and shadowed by
// the proxy: the same rounds and questions as the legacy server for every call.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  auditWithQuestions,
  buildTypescript,
  fillTypescriptStubs,
  generate,
  questionFlow,
  shadowAgainst,
  startTypescript,
  toolsListDifferences,
} from '../support/migrated.js';
import { DEMO_ASKING as ASKING, DEMO_SERVER as SERVER, driveDemo } from '../support/migration-drives.js';
import type { Running } from '../support/processes.js';
import { ALL_CAPS, rpc } from '../support/rpc.js';

describe('report --handlers --lang ts over the demo server', () => {
  let audit: string;
  let dir: string;
  let server: Running & { url: string };
  before(async () => {
    audit = await auditWithQuestions(SERVER, driveDemo);
    ({ dir } = generate(audit, SERVER));
    fillTypescriptStubs(dir);
    buildTypescript(dir);
    server = await startTypescript(dir);
  });
  after(async () => {
    await server?.stop();
  });

  it('writes book_table with both branches the audit saw: decline ends, accept asks for the confirmation', () => {
    const handler = readFileSync(join(dir, 'src', 'tools', 'book_table.ts'), 'utf8');
    assert.match(handler, /if \(actionOf\(answers\["partySize_time"\]\) === "accept"\) \{/);
    assert.match(handler, /if \(actionOf\(answers\["partySize_time"\]\) === "decline"\) \{/);
    assert.match(handler, /"confirm": inputRequired\.elicit\(/);
    assert.match(readFileSync(join(dir, 'src', 'not-migrated.ts'), 'utf8'), /"tools":\["add"\]/);
  });

  it('lists every tool, migrated or not, as the legacy server declared it (titles included): a shadow tools/list finds no difference', async () => {
    assert.deepEqual(await toolsListDifferences(SERVER, server.url), []);
  });

  it('answers server/discover', async () => {
    const d = await rpc(server.url, 'server/discover', {}, { caps: ALL_CAPS });
    assert.deepEqual(d.body.result?.['supportedVersions'], ['2026-07-28']);
  });

  it('asks what the legacy server asked: the same rounds and questions for every call', async () => {
    const { records, counts } = await shadowAgainst(SERVER, server.url, { tools: ASKING, methods: [] }, 5, driveDemo);
    assert.deepEqual(counts, { match: 0, differ: 5, candidate_error: 0, skipped: 0 });
    const flows = records.map(questionFlow);
    for (const f of flows) assert.deepEqual(f.questions, [], `${f.target}: no question extra or missing`);
    assert.deepEqual(flows.map((f) => `${f.target} ${f.rounds}`).sort(), [
      'book_table 1/1',
      'book_table 2/2',
      'plan_trip 2/2',
      'project_files 1/1',
      'summarize 1/1',
    ]);
  });
});
