// The official 2026-07-28 client (v2), pinned to 2026-07-28, with canned answers for the three
// input kinds. Auto-fulfilment is on: input_required rounds are answered and retried by the SDK.
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface Answers {
  elicit?: (params: Record<string, unknown>) => Record<string, unknown>;
  sample?: (params: Record<string, unknown>) => Record<string, unknown>;
  roots?: () => Record<string, unknown>;
}

export const DEFAULT_ANSWERS: Required<Answers> = {
  elicit: (p) =>
    p['mode'] === 'url'
      ? { action: 'accept' }
      : { action: 'accept', content: { name: 'Ada', first: 'one', second: 'two', color: 'teal', hint: 'h', who: 'world' } },
  sample: () => ({ role: 'assistant', content: { type: 'text', text: 'sampled text' }, model: 'test-model', stopReason: 'endTurn' }),
  roots: () => ({ roots: [{ uri: 'file:///work/project', name: 'project' }] }),
};

export const ALL_CLIENT_CAPS: Record<string, unknown> = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** An unconnected client pinned to 2026-07-28 that answers what its capabilities declare. */
export function newClient(caps: Record<string, unknown> = ALL_CLIENT_CAPS, answers: Answers = {}): Client {
  const a = { ...DEFAULT_ANSWERS, ...answers };
  const client = new Client({ name: 'e2e', version: '1.0.0' }, { capabilities: caps, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  if (caps['elicitation']) client.setRequestHandler('elicitation/create', async (req) => a.elicit(req.params as never) as never);
  if (caps['sampling']) client.setRequestHandler('sampling/createMessage', async (req) => a.sample(req.params as never) as never);
  if (caps['roots']) client.setRequestHandler('roots/list', async () => a.roots() as never);
  return client;
}

export async function connectClient(url: string, caps: Record<string, unknown> = ALL_CLIENT_CAPS, answers: Answers = {}): Promise<Client> {
  const client = newClient(caps, answers);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

/** Several clients call ask-name at once, each answering with its own name: none may see another's. */
export async function expectCallsKeptApart(url: string, names: string[]): Promise<void> {
  const clients = await Promise.all(names.map((n) => connectClient(url, { elicitation: {} }, { elicit: () => ({ action: 'accept', content: { name: n } }) })));
  try {
    const results = await Promise.all(clients.map((c) => c.callTool({ name: 'ask-name', arguments: {} })));
    assert.deepEqual(
      results.map(textOf),
      names.map((n) => `Hello, ${n}!`),
    );
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
