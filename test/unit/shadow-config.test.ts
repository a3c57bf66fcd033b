// The `shadow:` key of an upstream: validated strictly at load (the candidate must be another,
// modern HTTP upstream; sample in 0..1; known keys and methods only; ignore paths that parse).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfigFile } from '../../src/config/file.js';
import { parseIgnorePath } from '../../src/config/shadow.js';
import { writeConfig } from '../support/config.js';

const upstreams = (shadow: string, candidate = '{ era: modern, http: { url: "http://127.0.0.1:1/mcp" } }') =>
  writeConfig(`
upstreams:
  old:
    stdio: { command: node, args: [old.js] }
    shadow: ${shadow}
  new: ${candidate}
`);

const refused = (path: string, message: RegExp) => assert.throws(() => loadConfigFile(path, {}), message);

describe('shadow configuration', () => {
  it('resolves a shadow with its defaults', () => {
    const f = loadConfigFile(upstreams('{ upstream: new, tools: [add], methods: [tools/list], ignore: ["content[*].text"] }'), {});
    assert.deepEqual(f.upstreams[0]!.shadow, {
      upstream: 'new',
      tools: ['add'],
      methods: ['tools/list'],
      sample: 1,
      ignore: ['content[*].text'],
      timeoutMs: 10_000,
      maxConcurrent: 4,
    });
    assert.equal(f.upstreams[1]!.shadow, undefined);
  });

  it('refuses a candidate that is not another modern http upstream', () => {
    refused(upstreams('{ upstream: nowhere, tools: [add] }'), /upstreams\.old\.shadow\.upstream: 'nowhere' is not one of the upstreams/);
    refused(upstreams('{ upstream: old, tools: [add] }'), /cannot shadow itself/);
    refused(
      upstreams('{ upstream: new, tools: [add] }', '{ http: { url: "http://127.0.0.1:1/mcp" } }'),
      /must be a 2026-07-28 server: era: modern with an http transport/,
    );
    refused(upstreams('{ upstream: new, tools: [add] }', '{ era: modern, stdio: { command: node } }'), /era: modern with an http transport/);
  });

  it('refuses a shadow on an upstream the proxy does not bridge', () => {
    const path = writeConfig(`
upstreams:
  old: { era: auto, http: { url: "http://127.0.0.1:2/mcp" }, shadow: { upstream: new, tools: [add] } }
  new: { era: modern, http: { url: "http://127.0.0.1:1/mcp" } }
`);
    refused(path, /only a legacy upstream/);
  });

  it('refuses unknown keys, methods that are not read-only lists or reads, an empty shadow and a bad sample', () => {
    refused(upstreams('{ upstream: new, tools: [add], mirror: true }'), /upstreams\.old\.shadow: Unrecognized key: "mirror"/);
    refused(upstreams('{ upstream: new, methods: [tools/call] }'), /tools are shadowed by name, in tools/);
    refused(upstreams('{ upstream: new, methods: [completion/complete] }'), /a shadowed method is one of/);
    refused(upstreams('{ upstream: new }'), /shadows nothing/);
    refused(upstreams('{ upstream: new, tools: [add], sample: 1.5 }'), /upstreams\.old\.shadow\.sample/);
    refused(upstreams('{ upstream: new, tools: [add], sample: -0.1 }'), /upstreams\.old\.shadow\.sample/);
    refused(upstreams('{ upstream: new, tools: [add], timeoutMs: 5 }'), /upstreams\.old\.shadow\.timeoutMs/);
    refused(upstreams('{ upstream: new, tools: [add], ignore: ["content[x"] }'), /'content\[x' is not a field path/);
  });
});

describe('parseIgnorePath', () => {
  it('reads names, indexes, wildcards and quoted names', () => {
    assert.deepEqual(parseIgnorePath('structuredContent.generatedAt'), [{ key: 'structuredContent' }, { key: 'generatedAt' }]);
    assert.deepEqual(parseIgnorePath('$.content[*].text'), [{ key: 'content' }, { any: true }, { key: 'text' }]);
    assert.deepEqual(parseIgnorePath('tools.*.annotations'), [{ key: 'tools' }, { any: true }, { key: 'annotations' }]);
    assert.deepEqual(parseIgnorePath('contents[0]["a b"]'), [{ key: 'contents' }, { index: 0 }, { key: 'a b' }]);
  });

  it('refuses what is not a path', () => {
    for (const bad of ['', '$', 'a..b', 'a[', 'a[-1]', 'a b']) assert.throws(() => parseIgnorePath(bad), /field path|names no field/, bad);
  });
});
