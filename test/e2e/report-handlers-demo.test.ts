// The demo server taken through the migration path: its asking tools audited with
// --audit-questions (book_table once accepted, once declined at the first question), the
// TypeScript server generated with both branches of book_table, built, started, and shadowed by
// the proxy: the same rounds and questions as the legacy server for every call.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectClient } from '../support/client.js';
import { auditWithQuestions, buildTypescript, fillTypescriptStubs, generate, questionFlow, shadowAgainst, startTypescript } from '../support/migrated.js';
import { ROOT, type Running } from '../support/processes.js';
import { ALL_CAPS, rpc } from '../support/rpc.js';

const SERVER = [process.execPath, `${ROOT}dist/examples/demo-server.js`];
const ASKING = ['book_table', 'summarize', 'project_files', 'plan_trip'];

/** book_table accepted, book_table declined, then the other asking tools: six calls. */
async function driveDemo(url: string): Promise<void> {
  let declineBooking = false;
  const client = await connectClient(url, ALL_CAPS, {
    elicit: (p) => {
      const message = String(p['message']);
      if (message.startsWith('How many people')) return declineBooking ? { action: 'decline' } : { action: 'accept', content: { partySize: 2, time: '19:30' } };
      if (message.startsWith('Book a table')) return { action: 'accept', content: { confirm: true } };
      if (message.startsWith('Trip to')) return { action: 'accept', content: { days: 3, budget: 'comfortable' } };
      return { action: 'accept', content: { addIdea: true } };
    },
  });
  try {
    await client.callTool({ name: 'book_table', arguments: { name: 'Ada' } });
    declineBooking = true;
    await client.callTool({ name: 'book_table', arguments: {} });
    await client.callTool({ name: 'summarize', arguments: { text: 'A long text.' } });
    await client.callTool({ name: 'project_files', arguments: {} });
    await client.callTool({ name: 'plan_trip', arguments: { destination: 'Rome' } });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  } finally {
    await client.close();
  }
}

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
