// `node dist/bench/body-memory.js [PROXY_BIN] [-- PROXY_FLAGS...]`: the proxy's peak memory (VmHWM)
// while 200 clients each POST a ~4 MB tools/call at once. Prints one JSON line; asserts nothing.
// Compare two builds by passing each one's bin/mrtr-proxy.js.
import { readFileSync } from 'node:fs';
import { FIXTURE, PROXY_BIN, startProcess } from '../test/support/processes.js';
import { PROTOCOL } from '../test/support/rpc.js';

const CLIENTS = 200;
const TEXT_BYTES = 4 * 1024 * 1024 - 1024;

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const bin = (dash === -1 ? args[0] : args.slice(0, dash)[0]) ?? PROXY_BIN;
const flags = dash === -1 ? [] : args.slice(dash + 1);

const kib = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

const proxy = await startProcess(process.execPath, [bin, '--port', '0', ...flags, '--', process.execPath, FIXTURE], /listening on (http:\/\/[^"\s]+)/, {
  env: { MRTR_STATE_KEY: Buffer.alloc(32, 7).toString('base64url') },
});
const pid = proxy.child.pid!;
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'echo',
    arguments: { text: 'x'.repeat(TEXT_BYTES) },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': PROTOCOL,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};
const before = kib(pid, 'VmRSS');
const started = Date.now();
const statuses = await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    try {
      const res = await fetch(proxy.ready, { method: 'POST', headers, body });
      await res.arrayBuffer();
      return String(res.status);
    } catch (err) {
      return (err as Error).message;
    }
  }),
);
const counts: Record<string, number> = {};
for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
const peak = kib(pid, 'VmHWM');
await proxy.stop();
process.stdout.write(
  `${JSON.stringify({ bin, flags, clients: CLIENTS, bodyMiB: +(body.length / 2 ** 20).toFixed(2), rssBeforeMiB: Math.round(before / 1024), peakRssMiB: Math.round(peak / 1024), seconds: (Date.now() - started) / 1000, statuses: counts })}\n`,
);
process.exit(0);
