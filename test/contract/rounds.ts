// The contract's input_required rounds seen one by one (the official client in manual mode): what
// a round asks, how requests are gathered, legacy-only fields, -32042, and calls kept apart.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { textOf } from '../support/client.js';
import type { Live } from './contract.js';

interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** A tools/call result as the wire has it, input_required or complete. */
interface Raw {
  resultType?: string;
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  content?: unknown;
}

const MANUAL = { allowInputRequired: true } as never;

/** One leg of a tools/call in manual mode: the first if no state is given, else a retry. */
async function leg(client: Client, name: string, args: Record<string, unknown>, state?: string, responses?: Record<string, unknown>): Promise<Raw> {
  const params = { name, arguments: args, ...(state === undefined ? {} : { requestState: state, inputResponses: responses }) };
  return (await client.callTool(params as never, MANUAL)) as unknown as Raw;
}

function asking(r: Raw): { requests: Record<string, InputRequest>; state: string } {
  assert.equal(r.resultType, 'input_required', JSON.stringify(r));
  assert.ok(r.inputRequests && typeof r.requestState === 'string', JSON.stringify(r));
  return { requests: r.inputRequests, state: r.requestState };
}

const form = (content: Record<string, unknown>) => ({ action: 'accept', content });

export function defineRoundContract(live: Live): void {
  it('asks two questions of one call in successive rounds', async () => {
    const c = live.client;
    const one = asking(await leg(c, 'ask-twice', {}));
    assert.deepEqual(Object.keys(one.requests), ['elicitation-1']);
    assert.equal(one.requests['elicitation-1']!.method, 'elicitation/create');
    assert.equal(one.requests['elicitation-1']!.params!['message'], 'First?');
    const two = asking(await leg(c, 'ask-twice', {}, one.state, { 'elicitation-1': form({ first: 'A' }) }));
    const [key, second] = Object.entries(two.requests)[0]!;
    assert.equal(Object.keys(two.requests).length, 1);
    assert.equal(second.params!['message'], 'Second?');
    assert.notEqual(two.state, one.state);
    const done = await leg(c, 'ask-twice', {}, two.state, { [key]: form({ second: 'B' }) });
    assert.equal(textOf(done), 'first=A second=B');
    // The same through automatic fulfilment.
    assert.equal(textOf(await c.callTool({ name: 'ask-twice', arguments: {} })), 'first=one second=two');
  });

  // One round as a rule; a server that waits for a CPU between its sends has the rest asked in the
  // next round (gathering itself is decided by timing: unit/gather and unit/bridge test it exactly).
  it('asks each request the legacy server sends together, in one round or the next, and answers each', async () => {
    const c = live.client;
    const answers: Record<string, unknown> = {
      'elicitation/create': form({ color: 'red' }),
      'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'hey' }, model: 'm' },
      'roots/list': { roots: [{ uri: 'file:///r' }] },
    };
    const asked: string[] = [];
    let r = await leg(c, 'ask-all', {});
    for (let round = 1; r.resultType === 'input_required'; round++) {
      assert.ok(round <= 3, `more rounds than requests: ${asked.join(', ')}`);
      const { requests, state } = asking(r);
      const responses = Object.fromEntries(Object.entries(requests).map(([key, req]) => [key, answers[req.method]]));
      asked.push(...Object.keys(requests));
      r = await leg(c, 'ask-all', {}, state, responses);
    }
    assert.deepEqual(asked.sort(), ['elicitation-1', 'roots-3', 'sampling-2']);
    assert.equal(textOf(r), 'color=red model=m said=hey roots=file:///r');
    assert.equal(textOf(await c.callTool({ name: 'ask-all', arguments: {} })), 'color=teal model=test-model said=sampled text roots=file:///work/project');
  });

  it('asks a question the server sends while its call waits for the user in the next round, never answering it itself', async () => {
    const c = live.client;
    const byMessage: Record<string, unknown> = { 'Now?': form({ a: 'A' }), 'Later?': form({ b: 'B' }) };
    const asked: string[] = [];
    let r = await leg(c, 'ask-while-waiting', { ms: 30 });
    for (let round = 1; r.resultType === 'input_required'; round++) {
      assert.ok(round <= 2, `more rounds than questions: ${asked.join(', ')}`);
      const { requests, state } = asking(r);
      asked.push(...Object.values(requests).map((q) => String(q.params!['message'])));
      // The user takes a while: the second question leaves while the call waits for this answer.
      if (round === 1) await new Promise((done) => setTimeout(done, 300));
      const responses = Object.fromEntries(Object.entries(requests).map(([key, q]) => [key, byMessage[String(q.params!['message'])]]));
      r = await leg(c, 'ask-while-waiting', { ms: 30 }, state, responses);
    }
    assert.deepEqual(asked.sort(), ['Later?', 'Now?']);
    assert.equal(textOf(r), 'a=accept:A b=accept:B');
  });

  it('strips legacy-only fields from input requests', async () => {
    const r = asking(await leg(live.client, 'ask-url', {}));
    const params = r.requests['elicitation-1']!.params!;
    assert.equal(params['mode'], 'url');
    assert.equal(params['url'], 'https://example.com/login');
    assert.equal(params['elicitationId'], undefined);
    assert.equal(params['_meta'], undefined);
    assert.equal(textOf(await leg(live.client, 'ask-url', {}, r.state, { 'elicitation-1': { action: 'decline' } })), 'url elicitation: decline');
  });

  it('turns a legacy -32042 into a URL elicitation round and re-sends the call once accepted', async () => {
    const first = asking(await leg(live.client, 'needs-url', {}));
    const [key, req] = Object.entries(first.requests)[0]!;
    assert.equal(req.method, 'elicitation/create');
    assert.equal(req.params!['mode'], 'url');
    assert.equal(req.params!['url'], 'https://example.com/authorize');
    assert.equal(req.params!['elicitationId'], undefined);
    assert.equal(textOf(await leg(live.client, 'needs-url', {}, first.state, { [key]: { action: 'accept' } })), 'authorized call done');
  });

  it('keeps concurrent interactive calls on one connection apart', async () => {
    const c = live.client;
    const people = [
      ['Hi', 'Ann'],
      ['Hey', 'Bob'],
      ['Yo', 'Cy'],
    ] as const;
    const rounds = await Promise.all(people.map(([greeting]) => leg(c, 'ask-name', { greeting }).then(asking)));
    // Answered in the reverse order, each on its own state.
    const done = await Promise.all(
      [...people.keys()].reverse().map(async (i) => {
        const [greeting, name] = people[i]!;
        return [i, textOf(await leg(c, 'ask-name', { greeting }, rounds[i]!.state, { 'elicitation-1': form({ name }) }))] as const;
      }),
    );
    const byCall = done.sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    assert.deepEqual(
      byCall,
      people.map(([g, n]) => `${g}, ${n}!`),
    );
  });
}
