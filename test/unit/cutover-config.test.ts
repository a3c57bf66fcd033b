// The `cutover:` key of a legacy upstream: validated strictly at load (the migrated server must be
// another, modern HTTP upstream; known keys; something cut over; no tool both cut over and
// shadowed), resolved with the migrated server's transport, and refused on the stdio front.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfigFile } from '../../src/config/file.js';
import { resolveArgv } from '../../src/config/resolve-argv.js';
import { writeConfig } from '../support/config.js';

const upstreams = (cutover: string, migrated = '{ era: modern, http: { url: "http://127.0.0.1:1/mcp" }, headers: { X-Key: abc } }', extra = '') =>
  writeConfig(`
default: old
upstreams:
  old:
    stdio: { command: node, args: [old.js] }
    cutover: ${cutover}
${extra}
  new: ${migrated}
`);

const refused = (path: string, message: RegExp) => assert.throws(() => loadConfigFile(path, {}), message);

describe('cutover configuration', () => {
  it("resolves a cutover with the migrated server's transport", () => {
    const f = loadConfigFile(upstreams('{ upstream: new, tools: [ask-name, book], prompts: [greet], resourceTemplates: ["notes://note/{id}"] }'), {});
    const c = f.upstreams[0]!.cutover!;
    assert.deepEqual(
      { ...c, target: { ...c.target, url: c.target.url.href } },
      {
        upstream: 'new',
        target: { kind: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'X-Key': 'abc' } },
        tools: ['ask-name', 'book'],
        prompts: ['greet'],
        resources: [],
        resourceTemplates: ['notes://note/{id}'],
      },
    );
    assert.equal(f.upstreams[1]!.cutover, undefined);
  });

  it('refuses a migrated server that is not another modern http upstream', () => {
    refused(upstreams('{ upstream: nowhere, tools: [a] }'), /upstreams\.old\.cutover\.upstream: 'nowhere' is not one of the upstreams/);
    refused(upstreams('{ upstream: old, tools: [a] }'), /upstreams\.old\.cutover\.upstream: an upstream cannot cut over to itself/);
    refused(
      upstreams('{ upstream: new, tools: [a] }', '{ http: { url: "http://127.0.0.1:1/mcp" } }'),
      /must be a 2026-07-28 server over http \(era: modern with http:\)/,
    );
    refused(
      upstreams('{ upstream: new, tools: [a] }', '{ era: modern, stdio: { command: node } }'),
      /a 2026-07-28 stdio server cannot take cut-over items yet/,
    );
  });

  it('refuses a cutover on an upstream the proxy does not bridge', () => {
    const path = (era: string) =>
      writeConfig(`
upstreams:
  old: { era: ${era}, http: { url: "http://127.0.0.1:2/mcp" }, cutover: { upstream: new, tools: [a] } }
  new: { era: modern, http: { url: "http://127.0.0.1:1/mcp" } }
`);
    refused(path('modern'), /upstreams\.old\.cutover: only a legacy upstream \(bridged by the proxy\) can cut items over/);
    refused(path('auto'), /only a legacy upstream/);
  });

  it('refuses unknown keys, an empty cutover, an item named twice and a template among the resources', () => {
    refused(upstreams('{ upstream: new, tools: [a], http: "http://127.0.0.1:1/mcp" }'), /upstreams\.old\.cutover: Unrecognized key: "http"/);
    refused(upstreams('{ upstream: new, tool: [a] }'), /upstreams\.old\.cutover: Unrecognized key: "tool" \(did you mean tools\?\)/);
    refused(
      upstreams('{ upstream: new }'),
      /upstreams\.old\.cutover: cuts nothing over: name tools, prompts, resources or resourceTemplates \(or remove cutover:\)/,
    );
    refused(upstreams('{ upstream: new, tools: [], prompts: [] }'), /cuts nothing over/);
    refused(upstreams('{ upstream: new, tools: [a, b, a] }'), /upstreams\.old\.cutover\.tools: 'a' is named twice/);
    refused(
      upstreams('{ upstream: new, resources: ["notes://note/{id}"] }'),
      /cutover\.resources: 'notes:\/\/note\/\{id\}' is a URI template: name it under resourceTemplates/,
    );
    refused(upstreams('{ tools: [a] }'), /upstreams\.old\.cutover\.upstream/);
  });

  it('refuses a tool both cut over and shadowed, which nothing would compare', () => {
    refused(
      upstreams('{ upstream: new, tools: [a] }', undefined, '    shadow: { upstream: new, tools: [a, b] }'),
      /upstreams\.old\.shadow\.tools: 'a' is cut over \(cutover\.tools\): the migrated server serves it and nothing compares it; remove it from shadow\.tools/,
    );
    // Shadowing what is not cut over is what the migration guide does.
    const f = loadConfigFile(upstreams('{ upstream: new, tools: [a] }', undefined, '    shadow: { upstream: new, tools: [b] }'), {});
    assert.deepEqual(f.upstreams[0]!.shadow?.tools, ['b']);
  });

  it('refuses a cutover on the stdio front, which routes none', () => {
    const path = upstreams('{ upstream: new, tools: [a] }');
    assert.throws(
      () => resolveArgv(['--stdio', '--config', path], {}, loadConfigFile),
      /--stdio: the cutover of upstream 'old' is routed by the HTTP front only/,
    );
    assert.equal(resolveArgv(['--config', path], {}, loadConfigFile).action, 'run');
  });
});
