// What the hostile-names fixture (test/fixtures/hostile-names-server.ts) declares, how the tests
// drive it, and the edited audit record: each hostile value is a line terminator followed by a
// statement that, were it ever code, would create a marker file named after the value's place in
// the directory HOSTILE_MARKERS names.
import { readFileSync, appendFileSync } from 'node:fs';
import { connectClient } from './client.js';
import { ROOT } from './processes.js';

export type PayloadLang = 'ts' | 'py';

export const MARKERS_ENV = 'HOSTILE_MARKERS';
export const HOSTILE_SERVER = (lang: PayloadLang) => [process.execPath, `${ROOT}dist/test/fixtures/hostile-names-server.js`, lang];

/** A statement that creates `marker`, with the rest of its line a comment, in each language. */
function statement(lang: PayloadLang, marker: string, indent = ''): string {
  return lang === 'ts'
    ? `import('node:fs').then((fs) => fs.writeFileSync(process.env['${MARKERS_ENV}'] + '/${marker}', ''));//`
    : `${indent}import os; open(os.environ["${MARKERS_ENV}"] + "/${marker}", "w")  #`;
}

function values(lang: PayloadLang) {
  const nl = (marker: string, indent = '') => `\n${statement(lang, marker, indent)}`;
  return {
    serverName: `hostile${nl('server-name')}`,
    serverVersion: `1.0${nl('server-version')}`,
    branchTool: `branch${nl('branch-tool')}`,
    /** U+2028 ends a `//` comment in TypeScript, and JSON.stringify leaves it raw. */
    branchToolLs: `branch-ls\u2028${statement(lang, 'branch-tool-ls')}`,
    structuredKey: `key${nl('structured-key')}`,
    // Indented as the Python line it would land in (inside register()).
    propertyName: `prop${nl('property', '    ')}`,
    template: `hostile://x${nl('template')}/{id}`,
    outcomeCode: `1${nl('outcome-code')}`,
  };
}

export const HOSTILE = { ts: values('ts'), py: values('py') };

/** Names that are ordinary but awkward to generate: a keyword, a name and its finish file's name, a long name. */
export const AWKWARD_TOOLS = ['class', 'a', 'a_finish', 'x'.repeat(300)];

/** Every tool the fixture declares, each asked once (the branch tools twice, both ways). */
export function hostileTools(lang: PayloadLang): string[] {
  const h = HOSTILE[lang];
  return [h.branchTool, h.branchToolLs, 'structured', 'property', ...AWKWARD_TOOLS];
}

export const hostileRead = (lang: PayloadLang) => HOSTILE[lang].template.replace('{id}', '7');

export async function driveHostile(lang: PayloadLang, url: string): Promise<void> {
  const h = HOSTILE[lang];
  const client = await connectClient(url);
  try {
    for (const name of [h.branchTool, h.branchToolLs]) {
      await client.callTool({ name, arguments: { ask: true } });
      await client.callTool({ name, arguments: { ask: false } });
    }
    for (const name of ['structured', 'property', ...AWKWARD_TOOLS]) await client.callTool({ name, arguments: {} });
    await client.getPrompt({ name: 'keywords', arguments: { class: 'c', def: 'd' } });
    await client.readResource({ uri: hostileRead(lang) });
  } finally {
    await client.close();
  }
}

/**
 * The edited audit: a copy of a real record of `structured` whose outcome is an error with a
 * code that is not a number but a statement (the record's ending lands in a comment of the
 * finish file). Returns the line number it was written at.
 */
export function editAudit(audit: string, lang: PayloadLang): number {
  const lines = readFileSync(audit, 'utf8').trimEnd().split('\n');
  const original = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((r) => r['target'] === 'structured');
  if (!original) throw new Error(`no record of structured in ${audit}`);
  appendFileSync(audit, `${JSON.stringify({ ...original, outcome: { kind: 'error', code: HOSTILE[lang].outcomeCode, message: 'edited' } })}\n`);
  return lines.length + 1;
}
