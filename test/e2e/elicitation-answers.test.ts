// What an elicitation answer is worth is the legacy server's to judge, as with its own client: an
// accepted answer whose content does not match the requested schema reaches the server, which
// (a v1 SDK server) fails its call with an isError result, the same result its own legacy client
// gets. A malformed answer is refused (-32602, `fix`), and a round whose corrected retry never
// comes is let go within seconds, not parked for the whole --interaction-ttl.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const ASK = { name: 'ask-name', arguments: {} };
const ELICIT = { elicitation: {} };
const WRONG = { action: 'accept', content: { name: 42 } };

describe('elicitation answers the requested schema does not fit', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  const ask = async () => inputRequired(await rpc(proxy.url, 'tools/call', ASK, { caps: ELICIT }));
  const retry = (state: string, answer: unknown) =>
    rpc(proxy.url, 'tools/call', { ...ASK, requestState: state, inputResponses: { 'elicitation-1': answer } }, { caps: ELICIT });

  async function direct(): Promise<Record<string, unknown>> {
    const client = new LegacyClient({ name: 'direct', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => WRONG as never);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
    try {
      return (await client.callTool(ASK)) as Record<string, unknown>;
    } finally {
      await client.close();
    }
  }

  it('reach the legacy server, whose result the client gets as its own legacy client would', async () => {
    const legacy = await direct();
    assert.equal(legacy['isError'], true, JSON.stringify(legacy));
    const { requestState } = await ask();
    const r = await retry(requestState, WRONG);
    assert.equal(r.body.error, undefined, JSON.stringify(r.body));
    assert.equal(r.body.result?.['isError'], true);
    assert.deepEqual(r.body.result?.['content'], legacy['content']);
  });

  it('lets a round go a few seconds after its answer was refused as malformed, when no corrected retry comes', { timeout: 30_000 }, async () => {
    const { requestState } = await ask();
    const refused = await retry(requestState, { action: 'maybe' });
    assert.equal(refused.body.error?.code, -32602);
    await new Promise((r) => setTimeout(r, 12_000));
    const late = await retry(requestState, { action: 'accept', content: { name: 'Eve' } });
    assert.equal(late.body.error?.code, -32602, JSON.stringify(late.body));
    assert.equal((late.body.error?.data as { reason?: string } | undefined)?.reason, 'expired');
  });

  it('still takes a corrected retry sent at once', async () => {
    const { requestState } = await ask();
    assert.equal((await retry(requestState, { action: 'maybe' })).body.error?.code, -32602);
    const ok = await retry(requestState, { action: 'accept', content: { name: 'Eve' } });
    assert.match(JSON.stringify(ok.body.result), /Hello, Eve!/);
  });
});
