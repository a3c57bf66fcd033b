// An accepted form elicitation is checked against the schema the legacy server asked with, so a
// wrong answer is a -32602 the client can correct instead of a call the legacy server fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { partitionAnswers, type AskedInput } from '../../src/protocol/answers.js';
import { elicitationMismatch } from '../../src/protocol/elicitation-content.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 20 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    size: { type: 'string', enum: ['S', 'M', 'L'], enumNames: ['Small', 'Medium', 'Large'] },
    colours: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] }, maxItems: 2 },
    subscribe: { type: 'boolean' },
  },
  required: ['name'],
};
const asked = (schema: unknown = SCHEMA, mode?: string) => ({ ...(mode ? { mode } : {}), message: 'Who?', requestedSchema: schema });
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('elicitationMismatch', () => {
  it('accepts content that fits the schema, and answers that are not accepts', () => {
    assert.equal(
      elicitationMismatch(asked(), accept({ name: 'Ada', email: 'ada@example.com', age: 36, size: 'M', colours: ['red'], subscribe: true })),
      undefined,
    );
    assert.equal(elicitationMismatch(asked(), { action: 'decline' }), undefined);
    assert.equal(elicitationMismatch(asked(), { action: 'cancel' }), undefined);
  });

  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a missing required field', { email: 'a@b.c' }, /^field 'name' is required$/],
    ['a wrong type', { name: 'Ada', age: 'old' }, /^field 'age' must be integer$/],
    ['a number out of range', { name: 'Ada', age: 200 }, /^field 'age' must be <= 150$/],
    ['a string too long', { name: 'x'.repeat(21) }, /^field 'name' must NOT have more than 20 characters$/],
    ['a bad format', { name: 'Ada', email: 'not-an-email' }, /^field 'email' must match format "email"$/],
    ['a value outside the enum', { name: 'Ada', size: 'XL' }, /^field 'size' must be equal to one of the allowed values: one of \["S","M","L"\]$/],
    ['too many selections', { name: 'Ada', colours: ['red', 'blue', 'red'] }, /^field 'colours' must NOT have more than 2 items$/],
  ];
  for (const [what, content, message] of cases) {
    it(`names the field for ${what}`, () => {
      assert.match(elicitationMismatch(asked(), accept(content)) ?? 'fits', message);
    });
  }

  it('leaves URL mode and schemas it cannot read to the legacy server', () => {
    assert.equal(elicitationMismatch(asked(SCHEMA, 'url'), accept({})), undefined);
    assert.equal(elicitationMismatch({ message: 'Who?' }, accept({ anything: 1 })), undefined);
    assert.equal(elicitationMismatch(asked({ type: 'no-such-type' }), accept({})), undefined);
  });
});

describe('partitionAnswers with the requested schema', () => {
  const ELICIT: AskedInput = { key: 'elicitation-1', method: 'elicitation/create', request: { params: asked() } };

  it('refuses a schema-violating accept with the key and the field, so the round is not consumed', () => {
    const r = partitionAnswers([ELICIT], { 'elicitation-1': accept({ name: '' }) });
    assert.deepEqual(r, {
      ok: false,
      key: 'elicitation-1',
      message: "inputResponses['elicitation-1'].content does not match the requested schema: field 'name' must NOT have fewer than 1 characters",
    });
  });

  it('passes a fitting answer on unchanged', () => {
    const r = partitionAnswers([ELICIT], { 'elicitation-1': accept({ name: 'Ada' }) });
    assert.ok(r.ok);
    assert.deepEqual(r.answers.get('elicitation-1'), accept({ name: 'Ada' }));
  });
});
