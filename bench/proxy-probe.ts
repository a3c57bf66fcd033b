// Runs the real mrtr-proxy (the same main() as bin/mrtr-proxy.js) with one bench-only addition: on
// SIGUSR2 it runs a full GC (needs --expose-gc) and prints `probe-memory {json}` on stderr, so the
// waiting-users case can read heap and RSS after collection instead of whatever garbage is around.
import { main } from '../src/cli/main.js';

const gc = (globalThis as { gc?: () => void }).gc;
let n = 0;
process.on('SIGUSR2', () => {
  gc?.();
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
