// How long the proxy takes to frame and check one large message from a stdio legacy server, in
// process: the v1 SDK's ReadBuffer (what the stdio transport used) against upstream/transport/line-reader.ts
// with the JSON-RPC envelope check the transport now applies. The message arrives in 64 KiB
// chunks, as a pipe delivers it. Not part of `npm run bench`; run it by hand:
//
//   npm run build && node dist/bench/framing-probe.js [MiB ...]
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { asMessage } from '../src/upstream/transport/jsonrpc-message.js';
import { LineReader } from '../src/upstream/transport/line-reader.js';

const PIPE_CHUNK = 64 * 1024;
const REPEATS = 9;

function chunksOf(mib: number): Buffer[] {
  const result = { content: [{ type: 'image', data: 'A'.repeat(Math.round(mib * 1024 * 1024)), mimeType: 'image/png' }] };
  const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n`);
  const chunks: Buffer[] = [];
  for (let at = 0; at < line.length; at += PIPE_CHUNK) chunks.push(line.subarray(at, at + PIPE_CHUNK));
  return chunks;
}

function medianMs(run: () => number): number {
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    if (run() !== 1) throw new Error('expected one message');
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[REPEATS >> 1]!;
}

const sizes = process.argv.slice(2).map(Number);
for (const mib of sizes.length > 0 ? sizes : [0.25, 1, 4, 9]) {
  const chunks = chunksOf(mib);
  const sdk = medianMs(() => {
    const buffer = new ReadBuffer();
    let n = 0;
    for (const chunk of chunks) {
      buffer.append(chunk);
      while (buffer.readMessage() !== null) n++;
    }
    return n;
  });
  const ours = medianMs(() => {
    const reader = new LineReader();
    let n = 0;
    for (const chunk of chunks) for (const line of reader.push(chunk)) n += asMessage(JSON.parse(line)) ? 1 : 0;
    return n;
  });
  process.stdout.write(`${mib} MiB in ${chunks.length} chunks: SDK ReadBuffer ${sdk.toFixed(1)} ms, LineReader ${ours.toFixed(1)} ms (median of ${REPEATS})\n`);
}
