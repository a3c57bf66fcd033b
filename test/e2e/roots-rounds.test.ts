// Client round trips per call for a 2026-07-28 client that declares roots, against the two
// reference servers that read roots outside calls (server-everything asks 350 ms after
// initialize, server-filesystem without directory arguments at once): the figures docs/roots.md
// gives. Each call is one roots round, then the call, whatever the tool; a later roots/list in the
// same call is answered with the roots the client just gave; a client without roots pays nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EVERYTHING, FILESYSTEM, startProxy, type ProxyProcess } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

type Roots = Array<{ uri: string; name?: string }>;

/** Calls `name` answering every input request as a client would; how many round trips it took, what was asked, the final text. */
async function roundsOf(url: string, name: string, args: Record<string, unknown>, caps: Record<string, unknown>, roots: Roots) {
  let state: string | undefined;
  let responses: Record<string, unknown> | undefined;
  const asked: string[] = [];
  for (let rounds = 1; rounds <= 10; rounds++) {
    const params = { name, arguments: args, ...(state ? { requestState: state, inputResponses: responses } : {}) };
    const result = (await rpc(url, 'tools/call', params, { caps })).body.result!;
    if (result['resultType'] !== 'input_required') {
      const text = ((result['content'] as Array<{ text?: string }>) ?? []).map((c) => c.text ?? '').join('');
      return { rounds, asked, text };
    }
    state = result['requestState'] as string;
    responses = {};
    for (const [key, q] of Object.entries(result['inputRequests'] as Record<string, { method: string }>)) {
      asked.push(q.method);
      assert.equal(q.method, 'roots/list', 'only roots are asked here');
      responses[key] = { roots };
    }
  }
  throw new Error(`${name}: more than 10 rounds`);
}

const temp = mkdtempSync(join(tmpdir(), 'mrtr-rounds-'));
writeFileSync(join(temp, 'a.txt'), 'hello');
const ROOTS: Roots = [{ uri: `file://${temp}`, name: 'project' }];
const WITH_ROOTS = { roots: {} };
after(() => rmSync(temp, { recursive: true, force: true }));

describe('rounds per call, server-everything (asks roots/list after initialize)', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, EVERYTHING, 'stdio']);
  });
  after(() => proxy?.stop());

  it("two for every call of a client that declares roots, get-roots-list included, with the client's roots", async () => {
    const first = await roundsOf(proxy.url, 'get-roots-list', {}, WITH_ROOTS, ROOTS);
    assert.deepEqual([first.rounds, first.asked], [2, ['roots/list']]);
    assert.match(first.text, new RegExp(`URI: file://${temp}`));
    for (const [tool, args] of [
      ['echo', { message: 'hi' }],
      ['get-sum', { a: 1, b: 2 }],
      ['get-roots-list', {}],
    ] as const) {
      const r = await roundsOf(proxy.url, tool, args, WITH_ROOTS, ROOTS);
      assert.deepEqual([tool, r.rounds, r.asked], [tool, 2, ['roots/list']]);
    }
  });

  it('one for a client that declares no roots', async () => {
    const r = await roundsOf(proxy.url, 'echo', { message: 'hi' }, {}, ROOTS);
    assert.deepEqual([r.rounds, r.asked], [1, []]);
  });
});

describe('rounds per call, server-filesystem without directories (asks roots/list at initialize)', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, FILESYSTEM]);
  });
  after(() => proxy?.stop());

  it('two for every call of a client that declares roots, inside its roots', async () => {
    for (const [tool, args] of [
      ['list_allowed_directories', {}],
      ['read_text_file', { path: join(temp, 'a.txt') }],
      ['list_directory', { path: temp }],
    ] as const) {
      const r = await roundsOf(proxy.url, tool, args, WITH_ROOTS, ROOTS);
      assert.deepEqual([tool, r.rounds, r.asked], [tool, 2, ['roots/list']]);
      assert.doesNotMatch(r.text, /denied|outside allowed/i, r.text);
    }
  });
});
