import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  capabilityKey,
  describeCapabilities,
  elicitationModes,
  legacyCapabilitiesFor,
  missingCapabilities,
  type FrontCapabilities,
  type LegacyCapabilities,
} from '../../src/protocol/capabilities.js';

describe('elicitationModes', () => {
  it('grants nothing without an elicitation declaration', () => {
    assert.deepEqual(elicitationModes(undefined), { form: false, url: false });
    assert.deepEqual(elicitationModes({}), { form: false, url: false });
    assert.deepEqual(elicitationModes({ sampling: {} }), { form: false, url: false });
  });

  it('treats a non-object elicitation declaration as absent', () => {
    for (const e of [null, true, 'form', 1, []]) {
      assert.deepEqual(elicitationModes({ elicitation: e } as unknown as FrontCapabilities), { form: false, url: false }, String(e));
    }
  });

  it('reads an empty declaration as form only', () => {
    assert.deepEqual(elicitationModes({ elicitation: {} }), { form: true, url: false });
  });

  it('reads form, url and both', () => {
    assert.deepEqual(elicitationModes({ elicitation: { form: {} } }), { form: true, url: false });
    assert.deepEqual(elicitationModes({ elicitation: { url: {} } }), { form: false, url: true });
    assert.deepEqual(elicitationModes({ elicitation: { form: {}, url: {} } }), { form: true, url: true });
  });

  it('ignores sub-keys that are not objects', () => {
    // Only object-valued sub-keys count; with none counting the declaration is the `{}` case.
    assert.deepEqual(elicitationModes({ elicitation: { url: true } } as unknown as FrontCapabilities), { form: true, url: false });
    assert.deepEqual(elicitationModes({ elicitation: { url: {}, form: null } } as unknown as FrontCapabilities), { form: false, url: true });
    assert.deepEqual(elicitationModes({ elicitation: { other: {} } }), { form: true, url: false });
  });
});

describe('legacyCapabilitiesFor', () => {
  it('declares nothing for no capabilities', () => {
    assert.deepEqual(legacyCapabilitiesFor(undefined), {});
    assert.deepEqual(legacyCapabilitiesFor({}), {});
  });

  it('maps elicitation modes', () => {
    assert.deepEqual(legacyCapabilitiesFor({ elicitation: {} }), { elicitation: { form: {} } });
    assert.deepEqual(legacyCapabilitiesFor({ elicitation: { url: {} } }), { elicitation: { url: {} } });
    assert.deepEqual(legacyCapabilitiesFor({ elicitation: { form: {}, url: {} } }), { elicitation: { form: {}, url: {} } });
  });

  it('maps sampling and its sub-capabilities, dropping their contents', () => {
    assert.deepEqual(legacyCapabilitiesFor({ sampling: {} }), { sampling: {} });
    assert.deepEqual(legacyCapabilitiesFor({ sampling: { context: { x: 1 } } }), { sampling: { context: {} } });
    assert.deepEqual(legacyCapabilitiesFor({ sampling: { tools: {} } }), { sampling: { tools: {} } });
    assert.deepEqual(legacyCapabilitiesFor({ sampling: { context: {}, tools: {}, vendor: {} } }), { sampling: { context: {}, tools: {} } });
  });

  it('maps roots, with or without listChanged, to roots with listChanged, as desktop clients declare them', () => {
    assert.deepEqual(legacyCapabilitiesFor({ roots: { listChanged: true } }), { roots: { listChanged: true } });
    assert.deepEqual(legacyCapabilitiesFor({ roots: {} }), { roots: { listChanged: true } });
  });

  it('never declares tasks or unknown capabilities', () => {
    const out = legacyCapabilitiesFor({ tasks: { requests: {} }, experimental: { x: {} }, elicitation: {}, sampling: {}, roots: {} });
    assert.deepEqual(out, { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } });
    assert.equal('tasks' in out, false);
  });

  it('ignores non-object sampling and roots', () => {
    assert.deepEqual(legacyCapabilitiesFor({ sampling: true, roots: [] } as unknown as FrontCapabilities), {});
  });
});

describe('capabilityKey', () => {
  it('is "none" for no capabilities', () => {
    assert.equal(capabilityKey({}), 'none');
  });

  it('names each capability and its sub-capabilities', () => {
    assert.equal(capabilityKey({ elicitation: { form: {} } }), 'elicitation(form)');
    assert.equal(capabilityKey({ sampling: {} }), 'sampling()');
    assert.equal(capabilityKey({ roots: { listChanged: true } }), 'roots');
    assert.equal(
      capabilityKey({ elicitation: { form: {}, url: {} }, sampling: { context: {}, tools: {} }, roots: { listChanged: true } }),
      'elicitation(form,url)+sampling(context,tools)+roots',
    );
  });

  it('does not depend on key order', () => {
    assert.equal(capabilityKey({ elicitation: { url: {}, form: {} } }), capabilityKey({ elicitation: { form: {}, url: {} } }));
    assert.equal(capabilityKey({ sampling: { tools: {}, context: {} } }), capabilityKey({ sampling: { context: {}, tools: {} } }));
    assert.equal(capabilityKey({ roots: { listChanged: true }, sampling: {} }), capabilityKey({ sampling: {}, roots: { listChanged: true } }));
  });

  it('differs for different capability sets', () => {
    const sets: LegacyCapabilities[] = [
      {},
      { elicitation: { form: {} } },
      { elicitation: { url: {} } },
      { elicitation: { form: {}, url: {} } },
      { sampling: {} },
      { sampling: { tools: {} } },
      { sampling: { context: {} } },
      { roots: { listChanged: true } },
      { sampling: {}, roots: { listChanged: true } },
    ];
    const keys = new Set(sets.map(capabilityKey));
    assert.equal(keys.size, sets.length);
  });

  it('is equal for front declarations that map to the same legacy session', () => {
    assert.equal(
      capabilityKey(legacyCapabilitiesFor({ elicitation: {}, roots: { listChanged: true } })),
      capabilityKey(legacyCapabilitiesFor({ elicitation: { form: {} }, roots: {} })),
    );
  });
});

describe('missingCapabilities', () => {
  describe('elicitation/create', () => {
    it('form mode (explicit or default) needs elicitation.form', () => {
      assert.deepEqual(missingCapabilities('elicitation/create', { message: 'hi' }, undefined), { elicitation: { form: {} } });
      assert.deepEqual(missingCapabilities('elicitation/create', undefined, {}), { elicitation: { form: {} } });
      assert.deepEqual(missingCapabilities('elicitation/create', { mode: 'form' }, { elicitation: { url: {} } }), { elicitation: { form: {} } });
      assert.equal(missingCapabilities('elicitation/create', { message: 'hi' }, { elicitation: {} }), undefined);
      assert.equal(missingCapabilities('elicitation/create', { mode: 'form' }, { elicitation: { form: {} } }), undefined);
    });

    it('url mode needs elicitation.url', () => {
      const params = { mode: 'url', url: 'https://example.com', message: 'go', elicitationId: 'e1' };
      assert.deepEqual(missingCapabilities('elicitation/create', params, undefined), { elicitation: { url: {} } });
      assert.deepEqual(missingCapabilities('elicitation/create', params, { elicitation: {} }), { elicitation: { url: {} } });
      assert.deepEqual(missingCapabilities('elicitation/create', params, { elicitation: { form: {} } }), { elicitation: { url: {} } });
      assert.equal(missingCapabilities('elicitation/create', params, { elicitation: { url: {} } }), undefined);
      assert.equal(missingCapabilities('elicitation/create', params, { elicitation: { form: {}, url: {} } }), undefined);
    });
  });

  describe('sampling/createMessage', () => {
    const plain = { messages: [], maxTokens: 10 };
    it('needs sampling', () => {
      assert.deepEqual(missingCapabilities('sampling/createMessage', plain, undefined), { sampling: {} });
      assert.deepEqual(missingCapabilities('sampling/createMessage', undefined, { elicitation: {} }), { sampling: {} });
      assert.equal(missingCapabilities('sampling/createMessage', plain, { sampling: {} }), undefined);
    });

    it('needs sampling.tools when the request has tools or toolChoice', () => {
      const withTools = { ...plain, tools: [{ name: 't', inputSchema: { type: 'object' } }] };
      const withChoice = { ...plain, toolChoice: { mode: 'auto' } };
      for (const params of [withTools, withChoice]) {
        assert.deepEqual(missingCapabilities('sampling/createMessage', params, undefined), { sampling: { tools: {} } });
        assert.deepEqual(missingCapabilities('sampling/createMessage', params, { sampling: {} }), { sampling: { tools: {} } });
        assert.deepEqual(missingCapabilities('sampling/createMessage', params, { sampling: { context: {} } }), { sampling: { tools: {} } });
        assert.equal(missingCapabilities('sampling/createMessage', params, { sampling: { tools: {} } }), undefined);
      }
    });
  });

  describe('roots/list', () => {
    it('needs roots', () => {
      assert.deepEqual(missingCapabilities('roots/list', undefined, undefined), { roots: {} });
      assert.deepEqual(missingCapabilities('roots/list', {}, { sampling: {} }), { roots: {} });
      assert.equal(missingCapabilities('roots/list', undefined, { roots: {} }), undefined);
      assert.equal(missingCapabilities('roots/list', undefined, { roots: { listChanged: true } }), undefined);
    });
  });

  it('needs nothing for other methods', () => {
    assert.equal(missingCapabilities('ping', undefined, undefined), undefined);
    assert.equal(missingCapabilities('tools/list', {}, {}), undefined);
  });
});

describe('describeCapabilities', () => {
  it('names a capability with no sub-capabilities by itself', () => {
    assert.equal(describeCapabilities({ sampling: {} }), 'sampling');
    assert.equal(describeCapabilities({ roots: {} }), 'roots');
    assert.equal(describeCapabilities({ roots: true }), 'roots');
  });

  it('dots in sub-capabilities and joins them with +', () => {
    assert.equal(describeCapabilities({ elicitation: { url: {} } }), 'elicitation.url');
    assert.equal(describeCapabilities({ sampling: { tools: {} } }), 'sampling.tools');
    assert.equal(describeCapabilities({ elicitation: { form: {}, url: {} } }), 'elicitation.form+url');
  });

  it('lists several capabilities comma-separated', () => {
    assert.equal(describeCapabilities({ sampling: { tools: {} }, roots: {} }), 'sampling.tools, roots');
  });

  it('is empty for an empty object', () => {
    assert.equal(describeCapabilities({}), '');
  });

  it('describes what missingCapabilities returns', () => {
    const required = missingCapabilities('elicitation/create', { mode: 'url' }, { elicitation: {} });
    assert.ok(required);
    assert.equal(describeCapabilities(required), 'elicitation.url');
  });
});
