// What a read is named by outside its call: the declared resource, the template its URI matched, or
// the scheme alone; matched in time linear in the URI whatever the server's templates; and the
// upstream's catalog of what the server declared, filled from lists or listed once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchesTemplate, resourceNameOf, schemeOf } from '../../src/protocol/resource-names.js';
import { ResourceCatalog } from '../../src/upstream/resource-catalog.js';

describe('resourceNameOf', () => {
  const statics = ['notes://index'];
  const templates = ['notes://note/{id}', 'files:///{+path}', 'users://{user}/mail{?q}'];

  it('names a static resource by its URI and a templated read by its template', () => {
    assert.deepEqual(resourceNameOf('notes://index', statics, templates), { name: 'notes://index' });
    assert.deepEqual(resourceNameOf('notes://note/alice@example.com', statics, templates), { name: 'notes://note/{id}' });
    assert.deepEqual(resourceNameOf('files:///home/alice/taxes.pdf', statics, templates), { name: 'files:///{+path}' });
    assert.deepEqual(resourceNameOf('users://alice/mail?q=secret', statics, templates), { name: 'users://{user}/mail{?q}' });
  });

  it('names a URI that matches nothing declared by its scheme only, and says so', () => {
    assert.deepEqual(resourceNameOf('notes://other/alice@example.com', statics, templates), { name: 'notes:', undeclared: true });
    assert.deepEqual(resourceNameOf('alice@example.com', statics, templates), { name: '', undeclared: true });
    assert.equal(schemeOf('HTTPS://x'), 'HTTPS:');
    assert.equal(schemeOf(`${'a'.repeat(40)}://x`), '', 'an overlong scheme is not a scheme');
  });

  it('matches in linear time whatever the template (no backtracking on a hostile server)', () => {
    // As a regular expression, `{a}-{b}-...` against a long run of dashes backtracks for hours.
    const template = `x://${Array.from({ length: 30 }, (_, i) => `{v${i}}`).join('-')}!`;
    const uri = `x://${'-'.repeat(4000)}`;
    const started = performance.now();
    assert.equal(matchesTemplate(uri, template), false);
    assert.equal(matchesTemplate(`x://${'-'.repeat(29)}!`, template), true);
    assert.ok(performance.now() - started < 1000, `took ${performance.now() - started} ms`);
    assert.equal(matchesTemplate(`x://${'a'.repeat(5000)}`, 'x://{id}'), false, 'longer URIs match nothing');
  });
});

describe('ResourceCatalog', () => {
  it('names reads from the lists that passed through, and forgets them on a change', async () => {
    const c = new ResourceCatalog();
    c.observe('resources/templates/list', { resourceTemplates: [{ uriTemplate: 'notes://note/{id}', name: 'note' }] });
    c.observe('resources/list', { resources: [{ uri: 'notes://index', name: 'index' }] });
    assert.deepEqual(c.known('notes://note/7'), { name: 'notes://note/{id}' });
    assert.deepEqual(c.known('notes://index'), { name: 'notes://index' });
    c.invalidate();
    assert.deepEqual(c.known('notes://note/7'), { name: 'notes:', undeclared: true });
  });

  it('lists both lists in full once when a read matches nothing known', async () => {
    const c = new ResourceCatalog();
    const asked: string[] = [];
    const list = async (method: string, cursor: string | undefined) => {
      asked.push(`${method} ${cursor ?? ''}`);
      if (method === 'resources/list') return { resources: [] };
      return cursor === undefined
        ? { resourceTemplates: [{ uriTemplate: 'a://{x}' }], nextCursor: 'p2' }
        : { resourceTemplates: [{ uriTemplate: 'notes://note/{id}' }] };
    };
    assert.deepEqual(await c.nameOf('notes://note/7', list), { name: 'notes://note/{id}' });
    assert.deepEqual(await c.nameOf('zzz://q', list), { name: 'zzz:', undeclared: true });
    assert.deepEqual(asked, ['resources/list ', 'resources/templates/list ', 'resources/templates/list p2'], 'listed once');
  });

  it('names every read by its scheme when the server cannot list', async () => {
    const c = new ResourceCatalog();
    const list = async () => {
      throw new Error('Method not found');
    };
    assert.deepEqual(await c.nameOf('notes://note/7', list), { name: 'notes:', undeclared: true });
  });
});
