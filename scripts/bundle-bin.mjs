// Bundles the command (dist/src/cli/main.js, after tsc) into dist/bin/: a few files instead of
// ~900 modules. Node 20's ESM loader pays per module (resolve, read, compile), and that cost was
// most of the proxy's start-up; with a cold stdio upstream it competed with the legacy child
// starting. Only the `mrtr-proxy` command runs the bundle (bin/mrtr-proxy.js); the library API
// (dist/src/index.js) stays unbundled.
//
// Split at the dynamic imports, so the part that reads the command line and starts the legacy
// children stays small and the rest loads while the children start (cli/main.ts). The watchdog
// is an entry of its own: upstream/child/child-process.ts finds it next to itself (./watchdog.js).
// External: what the default configuration never loads (Redis, WebSocket, YAML, the OpenTelemetry
// SDK); it is loaded from node_modules when used.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Trimmed from the bundle, as the proxy never uses them (each was compiled at every start):
// - zod's namespace object re-exports every locale (z.locales.*, ~370 KB); only the default,
//   English, is ever used, so `locales` holds just `en`.
// - express requires body-parser at load for express.json() and friends (~600 KB with iconv-lite's
//   tables); the proxy reads bodies itself (front/body-reader.ts). They become getters that
//   require body-parser from node_modules if ever called.
const trims = {
  name: 'trims',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: args.importer.replace(/[\\/][^\\/]+[\\/][^\\/]+$/, '/locales/en.js'), namespace: 'zod-en' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]express[\\/]lib[\\/]express\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const lazy = source
        .replace("var bodyParser = require('body-parser')\n", '')
        .replace(
          /^exports\.(json|raw|text|urlencoded) = bodyParser\.\1$/gm,
          "Object.defineProperty(exports, '$1', { enumerable: true, get: () => require('body-parser').$1 })",
        );
      if (lazy.includes('bodyParser')) throw new Error('express/lib/express.js changed: its body-parser exports are not where bundle-bin.mjs expects them');
      return { contents: lazy, loader: 'js' };
    });
  },
};

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bin`;

// Written file by file, each whole (a temporary file renamed over it) and only when it changed,
// then what the build no longer makes is removed: a proxy starting meanwhile (`npm start` builds
// while other tests run) loads the old files or the new ones, never a missing or half-written one.
const { outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/cli/main.js', 'dist/src/upstream/child/watchdog.js'],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['body-parser', 'redis', 'ws', 'yaml', '@opentelemetry/sdk-trace-node', '@opentelemetry/resources', '@opentelemetry/exporter-*'],
  // The CommonJS dependencies (express, winston, prom-client) call require(); an ES module has none.
  banner: { js: "import { createRequire as __mrtrRequire } from 'node:module'; const require = __mrtrRequire(import.meta.url);" },
  plugins: [trims],
  logLevel: 'warning',
  write: false,
});
mkdirSync(outdir, { recursive: true });
for (const { path, contents } of outputFiles) {
  if (existsSync(path) && Buffer.compare(readFileSync(path), contents) === 0) continue;
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}
const made = new Set(outputFiles.map((f) => f.path));
for (const name of readdirSync(outdir)) {
  if (!made.has(join(outdir, name))) rmSync(join(outdir, name), { recursive: true, force: true });
}
