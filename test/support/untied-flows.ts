// Bursts of users of one tool through the proxy, each answering its own question: what the
// untied-questions tests drive (test/e2e/untied-questions.test.ts counts the sessions and children
// a burst starts, alone; test/e2e/untied-late-get.test.ts checks only the answers, in the pool).
import assert from 'node:assert/strict';
import { textOf } from './client.js';
import type { ProxyProcess } from './processes.js';
import { inputRequired, rpc, type RpcReply } from './rpc.js';

export const ELICIT = { elicitation: { form: {} } };

export interface Sessions {
  open: number;
  held: number;
  sharedCalls: number;
  waitingCalls: number;
}

export async function sessionsOf(proxy: ProxyProcess): Promise<Sessions> {
  const body = (await (await fetch(new URL('/readyz', proxy.url))).json()) as { upstreams: Record<string, { sessions: Sessions }> };
  return body.upstreams['default']!.sessions;
}

/**
 * `users` concurrent flows of `tool`: each asks, parks, and is answered with its own value; the
 * replies in user order. `value(i)` is what user i answers under `field`.
 */
export async function flows(proxy: ProxyProcess, tool: string, users: number, field: string, args: (i: number) => Record<string, unknown> = () => ({})) {
  const firsts = await Promise.all(Array.from({ length: users }, (_, i) => rpc(proxy.url, 'tools/call', { name: tool, arguments: args(i) }, { caps: ELICIT })));
  const parked = await sessionsOf(proxy);
  const answers: Promise<RpcReply>[] = firsts.map((first, i) => {
    if (first.body.result?.['resultType'] !== 'input_required') return Promise.resolve(first);
    const round = inputRequired(first);
    const key = Object.keys(round.inputRequests)[0]!;
    return rpc(
      proxy.url,
      'tools/call',
      { name: tool, arguments: args(i), requestState: round.requestState, inputResponses: { [key]: { action: 'accept', content: { [field]: `user-${i}` } } } },
      { caps: ELICIT },
    );
  });
  return { replies: await Promise.all(answers), parked };
}

export function assertOwnAnswers(replies: RpcReply[], expected: (i: number) => string): void {
  const wrong = replies.map((r, i) => [i, textOf(r.body.result) || JSON.stringify(r.body)] as const).filter(([i, text]) => text !== expected(i));
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${replies.length} users did not get their own answer`);
}
