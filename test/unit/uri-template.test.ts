// Which declared template an audited resource URI was read through, and the variables a migrated
// template's read callback takes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isTemplate, matchesTemplate, resourceOf, templateVariables } from '../../src/report/uri-template.js';

describe('uri templates', () => {
  it('tells a template from a URI', () => {
    assert.equal(isTemplate('notes://note/{id}'), true);
    assert.equal(isTemplate('fixture://secret'), false);
  });

  it('lists the variables once each, marking query and exploded ones', () => {
    assert.deepEqual(templateVariables('a://{x}/{+path}{?q,page:3}{&x}{/seg*}'), [
      { name: 'x', query: false, explode: false },
      { name: 'path', query: false, explode: false },
      { name: 'q', query: true, explode: false },
      { name: 'page', query: true, explode: false },
      { name: 'seg', query: false, explode: true },
    ]);
  });

  it('matches a URI read through a template, per operator', () => {
    assert.equal(matchesTemplate('notes://note/7', 'notes://note/{id}'), true);
    assert.equal(matchesTemplate('notes://note/7/x', 'notes://note/{id}'), false, 'a simple variable stops at /');
    assert.equal(matchesTemplate('files:///a/b.txt', 'files:///{+path}'), true);
    assert.equal(matchesTemplate('s://list?q=a&page=2', 's://list{?q,page}'), true);
    assert.equal(matchesTemplate('s://list', 's://list{?q,page}'), true, 'query variables may be left out');
    assert.equal(matchesTemplate('a.b://x', 'a.b://{id}'), true);
    assert.equal(matchesTemplate('aXb://x', 'a.b://{id}'), false, 'literal parts are literal');
  });

  it('names a read by its static resource first, else the first template it matches, else its URI', () => {
    const templates = ['notes://note/{id}', 'notes://{any}/{id}'];
    assert.equal(resourceOf('notes://note/1', [], templates), 'notes://note/{id}');
    assert.equal(resourceOf('notes://note/1', ['notes://note/1'], templates), 'notes://note/1');
    assert.equal(resourceOf('notes://other/1', [], templates), 'notes://{any}/{id}');
    assert.equal(resourceOf('fixture://secret', [], templates), 'fixture://secret');
  });
});
