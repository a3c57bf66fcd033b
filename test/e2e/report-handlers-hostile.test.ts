// `report --handlers` over a legacy server whose declared values and an audit record whose edited
// fields each carry a line terminator and a statement (test/fixtures/hostile-names-server.ts): in
// both languages the generated server builds (tsc strict; py_compile and import under mcp 2.3.0),
// starts and serves every item under its declared name, and no statement ran (no marker file).
// The ordinary but awkward names (a tool `class`, prompt arguments `class` and `def`, tools `a` and
// `a_finish`, a 300-character name) generate and build, and regenerating keeps every finish file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveHostile, editAudit, HOSTILE, HOSTILE_SERVER, hostileTools, MARKERS_ENV, type PayloadLang } from '../support/hostile.js';
import {
  auditWithQuestions,
  buildTypescript,
  checkPython,
  fillPythonStubs,
  fillTypescriptStubs,
  generate,
  startPython,
  startTypescript,
  STUB_TEXT,
} from '../support/migrated.js';
import type { Running } from '../support/processes.js';
import { pythonWithMcp2 } from '../support/python.js';
import { ALL_CAPS, rpc } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const env = pythonWithMcp2();
const pySkip = skipOrFail('the Python half of e2e/report-handlers-hostile', 'skip' in env && env.skip);
const python = 'python' in env ? env.python : '';

/** The finish file of tool `a`, which tool `a_finish` must never take. */
const A_FINISH: Record<PayloadLang, string> = { ts: 'src/tools/a.finish.ts', py: 'handlers/tools/a_finish.py' };

for (const lang of ['ts', 'py'] as const) {
  describe(`report --handlers --lang ${lang} over hostile names and an edited audit`, { skip: lang === 'py' ? pySkip : false }, () => {
    const server = HOSTILE_SERVER(lang);
    const markers = mkdtempSync(join(tmpdir(), `hostile-markers-${lang}-`));
    let audit: string;
    let editedLine: number;
    let dir: string;
    let stderr: string;
    let migrated: Running & { url: string };

    before(async () => {
      // Inherited by every child: the generated server, the Python import check.
      process.env[MARKERS_ENV] = markers;
      audit = await auditWithQuestions(server, (url) => driveHostile(lang, url));
      editedLine = editAudit(audit, lang);
      ({ dir, stderr } = generate(audit, server, lang));
      if (lang === 'ts') {
        fillTypescriptStubs(dir);
        buildTypescript(dir);
        migrated = await startTypescript(dir);
      } else {
        fillPythonStubs(dir);
        checkPython(python, dir);
        migrated = await startPython(python, dir);
      }
    });
    after(async () => {
      await migrated?.stop();
    });

    it('builds and starts, and nothing the legacy server declared or the audit held ran', async () => {
      const listed = await rpc(migrated.url, 'tools/list', {}, { caps: ALL_CAPS });
      assert.ok(listed.body.result, JSON.stringify(listed.body));
      assert.deepEqual(readdirSync(markers), []);
    });

    it('serves every item under the name the legacy server declared', async () => {
      const tools = await rpc(migrated.url, 'tools/list', {}, { caps: ALL_CAPS });
      const names = ((tools.body.result?.['tools'] ?? []) as Array<{ name: string; inputSchema: { properties?: object } }>).map((t) => t.name);
      assert.deepEqual(names.sort(), hostileTools(lang).sort());
      const property = ((tools.body.result?.['tools'] ?? []) as Array<{ name: string; inputSchema: { properties?: object } }>).find(
        (t) => t.name === 'property',
      );
      assert.deepEqual(Object.keys(property?.inputSchema.properties ?? {}), [HOSTILE[lang].propertyName]);
      const prompts = await rpc(migrated.url, 'prompts/list', {}, { caps: ALL_CAPS });
      const keywords = ((prompts.body.result?.['prompts'] ?? []) as Array<{ name: string; arguments?: Array<{ name: string; required?: boolean }> }>).find(
        (p) => p.name === 'keywords',
      );
      assert.deepEqual(
        keywords?.arguments?.map((a) => `${a.name}${a.required ? '' : '?'}`),
        ['class', 'def?'],
        JSON.stringify(prompts.body),
      );
      const templates = await rpc(migrated.url, 'resources/templates/list', {}, { caps: ALL_CAPS });
      assert.deepEqual(
        ((templates.body.result?.['resourceTemplates'] ?? []) as Array<{ uriTemplate: string }>).map((t) => t.uriTemplate),
        [HOSTILE[lang].template],
      );
    });

    it('skips the edited audit record and names it on stderr', () => {
      assert.match(stderr, new RegExp(`skipped ${audit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${editedLine}: audit record: outcome\\.code`));
    });

    it('keeps every finish file when it regenerates, tool a_finish never taking the finish file of tool a', () => {
      const before = readFileSync(join(dir, A_FINISH[lang]), 'utf8');
      assert.match(before, new RegExp(STUB_TEXT));
      generate(audit, server, lang, dir);
      assert.equal(readFileSync(join(dir, A_FINISH[lang]), 'utf8'), before);
    });
  });
}
