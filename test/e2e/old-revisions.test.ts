// Legacy servers that negotiate an older revision than 2025-11-25: the proxy accepts what the
// server picks and shapes answers for it (one sampling content block before 2025-11-25).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, startProxy } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { textOf } from '../support/client.js';

const OLD = `${ROOT}dist/test/fixtures/old-server.js`;
const CAPS = { sampling: {} };

for (const version of ['2024-11-05', '2025-03-26', '2025-06-18']) {
  describe(`a legacy server on ${version}`, () => {
    it('is bridged, and gets a single content block when the client answers with an array', async () => {
      // At debug: the legacy server reached, with the revision it negotiated.
      const proxy = await startProxy(['--log-level', 'debug', '--', process.execPath, OLD, version]);
      try {
        assert.match(proxy.stderr(), new RegExp(`"message":"legacy server reached","protocolVersion":"${version}"`));
        const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'sample', arguments: {} }, { caps: CAPS }));
        assert.deepEqual(Object.keys(first.inputRequests), ['sampling-1']);
        const answer = { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hello' }] };
        const done = await rpc(
          proxy.url,
          'tools/call',
          { name: 'sample', arguments: {}, requestState: first.requestState, inputResponses: { 'sampling-1': answer } },
          { caps: CAPS },
        );
        assert.equal(textOf(done.body.result), `got hello as ${version}`);

        const again = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'sample', arguments: {} }, { caps: CAPS }));
        const two = {
          ...answer,
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        };
        const refused = await rpc(
          proxy.url,
          'tools/call',
          { name: 'sample', arguments: {}, requestState: again.requestState, inputResponses: { 'sampling-1': two } },
          { caps: CAPS },
        );
        assert.equal(refused.body.error?.code, -32602);
        assert.match(refused.body.error!.message, new RegExp(`${version}, which takes exactly one sampling content block; got 2`));
      } finally {
        await proxy.stop();
      }
    });
  });
}
