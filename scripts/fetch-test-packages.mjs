#!/usr/bin/env node
// Fetches the npm packages the tests drive that are not devDependencies on purpose, into .cache:
// the official MCP Inspector (a real 2026-07-28 client: its web UI in chromium and its mcpdo CLI)
// and fastmcp for TypeScript (a legacy server stack, with the fixture written on it) declare
// Node >= 22 for themselves or a dependency (the Inspector; fastmcp through mcp-proxy's pipenet),
// and as devDependencies they would put engine warnings into every `npm install` of a checkout on
// Node 20, which the proxy supports; mcp-sqlite (a third-party legacy server) needs sqlite3, a
// native module that compiles from source where no prebuilt binary can be downloaded, which would
// make every `npm ci` of a checkout wait for a C compiler. The tests run them on the machine's
// Node, as any user of those packages on Node 20 would. Versions are pinned so every run tests the
// same packages; a fetch that fails leaves the tests that need it to say SKIPPED.
//
//   node scripts/fetch-test-packages.mjs     (npm test does this before its tests)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * .cache/DIR gets PACKAGES; `main` is the package whose version says whether it is there; `copy`
 * are files put beside them; `allowScripts` is the install-script decision for each package that
 * has one (npm reads it from the package.json of the directory it installs into).
 */
const SETS = [
  { dir: 'inspector', main: ['@modelcontextprotocol/inspector', '2.12.0'], packages: [] },
  // The fixture imports fastmcp and zod: it runs from .cache/fastmcp-ts, where they resolve.
  { dir: 'fastmcp-ts', main: ['fastmcp', '4.20.16'], packages: ['zod@4.6.7'], copy: ['test/fixtures/fastmcp-server.mjs'] },
  // sqlite3 builds its native module; mcp-sqlite's own script only prints a banner.
  { dir: 'mcp-sqlite', main: ['mcp-sqlite', '1.0.9'], packages: [], allowScripts: { 'mcp-sqlite': false, sqlite3: true } },
];

function installedVersion(prefix, name) {
  const manifest = `${prefix}/node_modules/${name}/package.json`;
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

/** Installs one set into .cache unless its version is there; the sets are independent, so they install side by side. */
async function fetchSet(set) {
  const prefix = `${root}.cache/${set.dir}`;
  const [name, version] = set.main;
  mkdirSync(prefix, { recursive: true });
  if (set.allowScripts) writeFileSync(`${prefix}/package.json`, `${JSON.stringify({ private: true, allowScripts: set.allowScripts }, null, 2)}\n`);
  if (installedVersion(prefix, name) !== version) {
    console.error(`fetch-test-packages: installing ${name}@${version} into .cache/${set.dir}`);
    try {
      const args = [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--loglevel',
        'error',
        '--prefix',
        prefix,
        `${name}@${version}`,
        ...set.packages,
      ];
      // JOBS: node-gyp compiles on every core instead of one. CFLAGS -O0 comes after the package's
      // own -O3 and wins: sqlite3's C compiles in half the time, and a test-only server serving a
      // few queries does not need the optimiser.
      const env = { ...process.env, JOBS: 'max', ...(set.allowScripts ? { CFLAGS: '-O0', CXXFLAGS: '-O0' } : {}) };
      const { stderr } = await promisify(execFile)('npm', args, { env, maxBuffer: 64 * 1024 * 1024 });
      if (stderr) process.stderr.write(stderr);
    } catch (err) {
      console.error(`fetch-test-packages: SKIPPED: could not install ${name}@${version} (${err.message}); its tests will say SKIPPED`);
    }
  }
  for (const file of set.copy ?? []) copyFileSync(`${root}${file}`, `${prefix}/${file.split('/').at(-1)}`);
}

await Promise.all(SETS.map(fetchSet));
