// Which side serves a request to a legacy upstream with a cutover, and the merged lists: pure
// functions of plain data (routing/cutover.ts, routing/cutover-lists.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CutoverConfig, CutoverItems } from '../../src/config/cutover.js';
import { changedKinds, itemsToCheck, originOf, sideOf, tokenOf } from '../../src/routing/cutover.js';
import { mergeList, missingItems } from '../../src/routing/cutover-lists.js';
import { createSealer } from '../../src/state/seal.js';

const items = (over: Partial<CutoverItems> = {}): CutoverItems => ({ tools: [], prompts: [], resources: [], resourceTemplates: [], ...over });
const CUT = items({ tools: ['book'], prompts: ['greet'], resources: ['notes://index'], resourceTemplates: ['notes://note/{id}'] });
const config = (over: Partial<CutoverItems> = {}, url = 'http://127.0.0.1:1/mcp'): CutoverConfig => ({
  upstream: 'next',
  target: { kind: 'http', url: new URL(url), headers: {} },
  ...items(over),
});

describe('which side serves a request', () => {
  it('sends a first request of a cut-over item to the migrated server, and every other to the legacy path', () => {
    const first = (method: string, params: Record<string, unknown>) => sideOf(CUT, method, params, 'none');
    assert.equal(first('tools/call', { name: 'book' }), 'migrated');
    assert.equal(first('tools/call', { name: 'ask-name' }), 'legacy');
    assert.equal(first('prompts/get', { name: 'greet' }), 'migrated');
    assert.equal(first('prompts/get', { name: 'book' }), 'legacy');
    assert.equal(first('resources/read', { uri: 'notes://index' }), 'migrated');
    assert.equal(first('resources/read', { uri: 'notes://note/42' }), 'migrated');
    assert.equal(first('resources/read', { uri: 'notes://other/42' }), 'legacy');
    // Lists are the legacy server's, merged; a tool name is no resource.
    assert.equal(first('tools/list', {}), 'legacy');
    assert.equal(first('resources/read', { uri: 'book' }), 'legacy');
    assert.equal(first('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' } }), 'legacy');
    assert.equal(sideOf(undefined, 'tools/call', { name: 'book' }, 'none'), 'legacy');
  });

  it('sends a retry back where its interaction began, whatever is cut over now', () => {
    // Begun on the legacy path before the item moved: the proxy sealed its state.
    assert.equal(sideOf(CUT, 'tools/call', { name: 'book', requestState: 's' }, 'proxy'), 'legacy');
    // Begun on the migrated server before the item moved back.
    assert.equal(sideOf(CUT, 'tools/call', { name: 'ask-name', requestState: 's' }, 'other'), 'migrated');
    assert.equal(sideOf(CUT, 'tools/call', { name: 'book', requestState: 's' }, 'other'), 'migrated');
    // A task's id says who runs it, as a requestState does.
    assert.equal(sideOf(CUT, 'tasks/get', { taskId: 't' }, 'other'), 'migrated');
    assert.equal(sideOf(CUT, 'tasks/cancel', { taskId: 't' }, 'proxy'), 'legacy');
    // A token on a method that is not routed by one changes nothing.
    assert.equal(sideOf(CUT, 'tools/list', { requestState: 's' }, 'other'), 'legacy');
  });

  it("sends a 2025-era client's request of a cut-over item to the migrated server, and its tasks and everything else to its own session", () => {
    const session = (method: string, params: Record<string, unknown>) => sideOf(CUT, method, params, 'session');
    assert.equal(session('tools/call', { name: 'book' }), 'migrated');
    assert.equal(session('prompts/get', { name: 'greet' }), 'migrated');
    assert.equal(session('resources/read', { uri: 'notes://note/42' }), 'migrated');
    assert.equal(session('tools/call', { name: 'ask-name' }), 'legacy');
    assert.equal(session('tools/list', {}), 'legacy');
    // A legacy task's id is the legacy server's: the session's own, whatever it looks like.
    assert.equal(session('tasks/get', { taskId: 't' }), 'legacy');
    assert.equal(session('tasks/result', { taskId: 't' }), 'legacy');
    // It carries no requestState of its own: a field of that name routes nothing.
    assert.equal(session('tools/call', { name: 'ask-name', requestState: 's' }), 'legacy');
    assert.equal(sideOf(undefined, 'tools/call', { name: 'book' }, 'session'), 'legacy');
  });

  it("reads a request's token and tells who sealed it", async () => {
    assert.equal(tokenOf('tools/call', { requestState: 'r', taskId: 't' }), 'r');
    assert.equal(tokenOf('tasks/update', { requestState: 'r', taskId: 't' }), 't');
    assert.equal(tokenOf('tools/call', undefined), undefined);
    const claims = { k: 'hold', h: 'h', i: 'i', r: 1, p: 'anonymous', fp: 'f' } as never;
    const sealer = createSealer([new Uint8Array(32).fill(1), new Uint8Array(32).fill(3)]);
    const mine = await sealer.seal(claims, Date.now() + 60_000);
    // A key kept only to open (rotation) is still this proxy's.
    const rotated = await createSealer(new Uint8Array(32).fill(3)).seal(claims, Date.now() + 60_000);
    const theirs = await createSealer(new Uint8Array(32).fill(2)).seal(claims, Date.now() + 60_000);
    const here = (t: unknown) => sealer.sealedHere(t);
    assert.equal(originOf(mine, here), 'proxy');
    assert.equal(originOf(rotated, here), 'proxy');
    assert.equal(originOf(theirs, here), 'other');
    assert.equal(originOf('eyJhbGciOiJIUzI1NiJ9.payload.signature', here), 'other');
    assert.equal(originOf(42, here), 'other');
    assert.equal(originOf(undefined, here), 'none');
    assert.equal(originOf(null, here), 'none');
  });
});

describe('what a reload changes', () => {
  it('names the kinds whose cut-over items changed, for list_changed', () => {
    assert.deepEqual(changedKinds(undefined, undefined), []);
    assert.deepEqual(changedKinds(CUT, CUT), []);
    assert.deepEqual(changedKinds(items({ tools: ['a', 'b'] }), items({ tools: ['b', 'a'] })), []);
    assert.deepEqual(changedKinds(CUT, { ...CUT, tools: [] }), ['tools']);
    assert.deepEqual(changedKinds(undefined, CUT), ['tools', 'prompts', 'resources', 'resourceTemplates']);
  });

  it('checks on the migrated server only what it does not already serve as checked', () => {
    const checked = config({ tools: ['a', 'b'] });
    assert.deepEqual(itemsToCheck(undefined, config({ tools: ['a'] })), items({ tools: ['a'] }));
    assert.deepEqual(itemsToCheck(checked, config({ tools: ['a', 'b', 'c'], prompts: ['p'] })), items({ tools: ['c'], prompts: ['p'] }));
    // A rollback asks nothing of the migrated server.
    assert.deepEqual(itemsToCheck(checked, config({ tools: ['a'] })), items());
    // Another server: everything again.
    assert.deepEqual(itemsToCheck(checked, config({ tools: ['a'] }, 'http://127.0.0.1:2/mcp')), items({ tools: ['a'] }));
  });
});

describe('merged lists', () => {
  const legacy = {
    tools: [
      { name: 'echo', description: 'legacy echo' },
      { name: 'book', description: 'legacy book' },
      { name: 'ask', description: 'legacy ask' },
    ],
  };
  const migrated = new Map([['book', { name: 'book', description: 'migrated book', inputSchema: { type: 'object' } }]]);

  it("replaces each cut-over item with the migrated server's entry, in place", () => {
    const { result, kept } = mergeList('tools/list', legacy, migrated, items({ tools: ['book'] }));
    assert.deepEqual(result, {
      tools: [
        { name: 'echo', description: 'legacy echo' },
        { name: 'book', description: 'migrated book', inputSchema: { type: 'object' } },
        { name: 'ask', description: 'legacy ask' },
      ],
    });
    assert.deepEqual(kept, []);
  });

  it('keeps the legacy entry of an item the migrated server does not list, and says so', () => {
    const { result, kept } = mergeList('tools/list', legacy, migrated, items({ tools: ['book', 'ask'] }));
    assert.equal((result['tools'] as { description: string }[])[2]!.description, 'legacy ask');
    assert.deepEqual(kept, ['ask']);
  });

  it('adds a cut-over item only the migrated server lists, on the last page only', () => {
    const only = new Map([['gone', { name: 'gone', description: 'only migrated' }]]);
    const last = mergeList('tools/list', legacy, only, items({ tools: ['gone'] })).result['tools'] as unknown[];
    assert.deepEqual(last.at(-1), { name: 'gone', description: 'only migrated' });
    const page = mergeList('tools/list', { ...legacy, nextCursor: 'c' }, only, items({ tools: ['gone'] })).result['tools'] as unknown[];
    assert.equal(page.length, 3);
  });

  it('keys resources by uri and templates by uriTemplate, and leaves other lists and kinds as they are', () => {
    const resources = { resources: [{ uri: 'notes://index', name: 'legacy' }] };
    const r = mergeList('resources/list', resources, new Map([['notes://index', { uri: 'notes://index', name: 'migrated' }]]), CUT);
    assert.deepEqual(r.result, { resources: [{ uri: 'notes://index', name: 'migrated' }] });
    const templates = { resourceTemplates: [{ uriTemplate: 'notes://note/{id}', name: 'legacy' }] };
    const t = mergeList('resources/templates/list', templates, new Map([['notes://note/{id}', { uriTemplate: 'notes://note/{id}', name: 'migrated' }]]), CUT);
    assert.deepEqual(t.result, { resourceTemplates: [{ uriTemplate: 'notes://note/{id}', name: 'migrated' }] });
    assert.equal(mergeList('prompts/list', legacy, migrated, items({ tools: ['book'] })).result, legacy);
    assert.equal(mergeList('completion/complete', legacy, migrated, CUT).result, legacy);
  });

  it('names what the migrated server does not list, by kind', () => {
    assert.deepEqual(missingItems(CUT, { tools: new Set(['book']), prompts: new Set(), resources: new Set(['notes://index']) }), [
      "prompt 'greet'",
      "resource template 'notes://note/{id}'",
    ]);
  });
});
