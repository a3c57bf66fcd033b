// Runs the real mrtr-proxy (the same main() as bin/mrtr-proxy.js) with one bench-only addition: on
// SIGUSR2 it runs a full GC (needs --expose-gc) and prints `probe-memory {json}` on stderr, so the
// waiting-users case can read heap and RSS after collection instead of whatever garbage is around.
import { main } from '../src/cli/main.js';

const gc = (globalThis as { gc?: () => void }).gc;
let n = 0;
// Two synchronous gc() calls are not a full collection of what is dead: objects reachable only
// from a FinalizationRegistry's holdings stay until V8's cleanup task has run, and that task only
// runs once the event loop turns. undici's Request (node:internal/deps/undici, `requestFinalizer`)
// holds the signal it follows (the @modelcontextprotocol/node adapter's per-request AbortSignal,
// with its listeners, their promises and the AsyncLocalStorage store holding our FrontRequest) in
// such holdings until the Request is collected and the cleanup has run. So: GC, let the loop turn
// so the cleanup runs, GC again.
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
process.on('SIGUSR2', async () => {
  gc?.();
  await turn();
  gc?.();
  await turn();
  gc?.();
  const m = process.memoryUsage();
  process.stderr.write(
    `probe-memory ${JSON.stringify({ n: ++n, gc: Boolean(gc), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers })}\n`,
  );
});

main(process.argv.slice(2), process.env).catch((err) => {
  process.stderr.write(`mrtr-proxy: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
