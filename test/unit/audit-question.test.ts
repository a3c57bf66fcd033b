// --audit-questions: what the server authored is kept, what the user or a model produced is not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { questionOf, resultShapeOf } from '../../src/audit/question.js';
import { AuditRecorder } from '../../src/audit/recorder.js';
import type { AuditRecord } from '../../src/audit/record.js';
import { testClock } from '../support/clock.js';

describe('questionOf', () => {
  it('keeps a form elicitation whole: message and requested schema with titles, defaults and enum values', () => {
    const requestedSchema = { type: 'object', properties: { env: { type: 'string', title: 'Env', enum: ['prod', 'dev'], default: 'dev' } }, required: ['env'] };
    assert.deepEqual(questionOf('elicitation/create', { message: 'Deploy where?', requestedSchema }), {
      method: 'elicitation/create',
      mode: 'form',
      message: 'Deploy where?',
      requestedSchema,
    });
  });

  it('keeps a URL elicitation without the query and fragment a per-call link carries', () => {
    assert.deepEqual(
      questionOf('elicitation/create', { mode: 'url', message: 'Sign in', url: 'https://idp.example/auth?token=per-call#x', elicitationId: 'e1' }),
      {
        method: 'elicitation/create',
        mode: 'url',
        message: 'Sign in',
        url: 'https://idp.example/auth',
      },
    );
  });

  it('keeps sampling parameters, and of the messages only their roles and content types', () => {
    const q = questionOf('sampling/createMessage', {
      messages: [
        { role: 'user', content: { type: 'text', text: 'user-secret' } },
        { role: 'assistant', content: [{ type: 'text', text: 'model-secret' }] },
      ],
      systemPrompt: 'You are terse.',
      maxTokens: 100,
      temperature: 0.7,
      modelPreferences: { hints: [{ name: 'claude' }] },
    });
    assert.deepEqual(q, {
      method: 'sampling/createMessage',
      params: {
        systemPrompt: 'You are terse.',
        maxTokens: 100,
        temperature: 0.7,
        modelPreferences: { hints: [{ name: 'claude' }] },
        messages: [
          { role: 'user', contentTypes: ['text'] },
          { role: 'assistant', contentTypes: ['text'] },
        ],
      },
    });
    assert.doesNotMatch(JSON.stringify(q), /secret/);
  });

  it('keeps a roots request as its method', () => {
    assert.deepEqual(questionOf('roots/list', undefined), { method: 'roots/list' });
  });
});

describe('audit recorder with questions on', () => {
  it('adds each request its question, and never the arguments or the answers', () => {
    const clock = testClock();
    const out: AuditRecord[] = [];
    const r = new AuditRecorder({ upstream: 'u', clock, content: false, questions: true, sink: (x) => out.push(x) });
    r.onStart({ handle: 'h', method: 'tools/call', params: { name: 'ask', arguments: { q: 'arg-secret' } }, mode: 'hold' });
    const requestedSchema = { type: 'object', properties: { pin: { type: 'string', description: 'Your PIN' } } };
    r.onRound({ handle: 'h', round: 1, asked: [{ key: 'elicitation-1', method: 'elicitation/create', params: { message: 'PIN?', requestedSchema } }] });
    r.onAnswers({ handle: 'h', round: 1, answers: new Map([['elicitation-1', { action: 'accept', content: { pin: 'answer-secret' } }]]) });
    r.onEnd({ handle: 'h', reason: 'completed', result: { content: [{ type: 'text', text: 'result-secret' }] } });
    assert.deepEqual(out[0]!.requests[0]!.question, { method: 'elicitation/create', mode: 'form', message: 'PIN?', requestedSchema });
    assert.deepEqual(out[0]!.resultShape, { parts: ['text'] });
    assert.doesNotMatch(JSON.stringify(out[0]), /secret/);
  });

  it('adds nothing with questions off', () => {
    const out: AuditRecord[] = [];
    const r = new AuditRecorder({ upstream: 'u', clock: testClock(), content: false, sink: (x) => out.push(x) });
    r.onStart({ handle: 'h', method: 'tools/call', params: { name: 'ask' }, mode: 'hold' });
    r.onRound({ handle: 'h', round: 1, asked: [{ key: 'roots-1', method: 'roots/list' }] });
    r.onEnd({ handle: 'h', reason: 'completed', result: { content: [] } });
    assert.equal(out[0]!.requests[0]!.question, undefined);
  });
});

describe('resultShapeOf', () => {
  it('keeps content types and structuredContent keys of a tool result, never the values', () => {
    const shape = resultShapeOf('tools/call', {
      content: [
        { type: 'text', text: 'secret' },
        { type: 'image', data: 'x' },
      ],
      structuredContent: { ref: 'secret' },
      isError: true,
    });
    assert.deepEqual(shape, { parts: ['text', 'image'], structured: ['ref'], isError: true });
  });

  it('keeps the roles and types of prompt messages and the kind and MIME type of resource contents', () => {
    assert.deepEqual(resultShapeOf('prompts/get', { messages: [{ role: 'user', content: { type: 'text', text: 'secret' } }] }), { parts: ['user/text'] });
    assert.deepEqual(
      resultShapeOf('resources/read', {
        contents: [
          { uri: 'u', text: 'secret', mimeType: 'text/plain' },
          { uri: 'u', blob: 'AA' },
        ],
      }),
      {
        parts: ['text text/plain', 'blob'],
      },
    );
  });
});
