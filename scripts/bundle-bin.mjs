// Bundles the command (dist/src/cli/main.js, after tsc) into dist/bin/: a few files instead of
// ~900 modules. Node 20's ESM loader pays per module (resolve, read, compile), and that cost was
// most of the proxy's start-up; with a cold stdio upstream it competed with the legacy child
// starting. Only the `mrtr-proxy` command runs the bundle (bin/mrtr-proxy.js); the library API
// (dist/src/index.js) stays unbundled.
//
// Split at the dynamic imports, so the part that reads the command line and starts the legacy
// children stays small and the rest loads while the children start (cli/main.ts). The watchdog
// is an entry of its own: upstream/child-process.ts finds it next to itself (./watchdog.js).
// External: what the default configuration never loads (Redis, WebSocket, YAML, the OpenTelemetry
// SDK); it is loaded from node_modules when used.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bin`;

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/cli/main.js', 'dist/src/upstream/watchdog.js'],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['redis', 'ws', 'yaml', '@opentelemetry/sdk-trace-node', '@opentelemetry/resources', '@opentelemetry/exporter-*'],
  // The CommonJS dependencies (express, winston, prom-client) call require(); an ES module has none.
  banner: { js: "import { createRequire as __mrtrRequire } from 'node:module'; const require = __mrtrRequire(import.meta.url);" },
  logLevel: 'warning',
});
