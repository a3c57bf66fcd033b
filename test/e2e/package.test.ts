// The package as a user gets it: `npm pack` of a clean copy of the checkout (prepack builds it),
// the container image's install step (docker/install.sh) into an empty directory, then
// `npx mrtr-proxy --help`, the library import with its types, and the installed proxy serving the
// bundled demo on the machine's Node and on Node 22 and 24 (fetched into .cache). Then an install
// without optional dependencies (no redis): it serves a stdio upstream and refuses --state-store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeRuntimes } from '../support/node-binaries.js';
import { ROOT, startProxy } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const work = mkdtempSync(join(tmpdir(), 'mrtr-package-'));
const checkout = join(work, 'checkout');
const install = join(work, 'install');
const installed = join(install, 'node_modules', 'mrtr-proxy');
/** `npm install --omit=optional`: no redis. */
const slim = join(work, 'slim');
const slimInstalled = join(slim, 'node_modules', 'mrtr-proxy');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });

/** The files a clean checkout has: tracked, or new and not ignored (what the next commit holds). */
function copyCheckout(): void {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(checkout, f)), { recursive: true });
    cpSync(join(ROOT, f), join(checkout, f));
  }
  // The build tools a clean checkout gets from `npm ci`; no dist/ is copied.
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
}

let packed: string[] = [];
before(() => {
  copyCheckout();
  assert.ok(!existsSync(join(checkout, 'dist')), 'the copy has no build');
  const [report] = JSON.parse(npm(['pack', '--json', '--pack-destination', work], checkout)) as [{ filename: string; files: { path: string }[] }];
  packed = report.files.map((f) => f.path);
  execFileSync('sh', [join(ROOT, 'docker/install.sh'), join(work, report.filename), install], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  mkdirSync(slim);
  writeFileSync(join(slim, 'package.json'), '{ "name": "mrtr-proxy-slim", "private": true }\n');
  npm(['install', '--omit=dev', '--omit=optional', '--no-audit', '--no-fund', '--prefer-offline', join(work, report.filename)], slim);
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('holds the proxy, its types, the demo and the sample config, and no tests, benchmarks or source maps', () => {
    for (const f of [
      'bin/mrtr-proxy.js',
      'dist/bin/main.js',
      'dist/bin/watchdog.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/main.js',
      'dist/examples/demo-server.js',
      'config/proxy.yaml',
      'LICENSE',
    ]) {
      assert.ok(packed.includes(f), `packs ${f}`);
    }
    const unwanted = packed.filter((f) => /^(test|bench|src|examples)\/|^dist\/(test|bench)\/|\.map$|\.ts$/.test(f) && !f.endsWith('.d.ts'));
    assert.deepEqual(unwanted, []);
    assert.deepEqual(
      packed.filter((f) => f.startsWith('dist/examples/')),
      ['dist/examples/demo-server.js'],
    );
  });

  it('installs into an empty directory, and npx mrtr-proxy --help works', () => {
    const r = spawnSync('npx', ['--no-install', 'mrtr-proxy', '--help'], { cwd: install, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^mrtr-proxy \d+\.\d+\.\d+: /);
  });

  it("exports createProxy with type declarations a consumer's TypeScript accepts", () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('mrtr-proxy'); console.log(typeof m.createProxy)"], {
      cwd: install,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.stdout.trim(), 'function', r.stderr);
    writeFileSync(
      join(install, 'consumer.ts'),
      "import { createProxy, type MrtrProxy } from 'mrtr-proxy';\nconst p: Promise<MrtrProxy> = createProxy({ listen: { port: 0 }, upstreams: { a: { http: { url: 'http://127.0.0.1:1/mcp' } } } });\nvoid p;\n",
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'consumer.ts'];
    const t = spawnSync(process.execPath, [tsc, ...args], { cwd: install, encoding: 'utf8', timeout: 60_000 });
    assert.equal(t.status, 0, t.stdout + t.stderr);
  });

  it('exits 1 naming ENOENT when the legacy command does not exist', () => {
    const r = spawnSync(process.execPath, [join(installed, 'bin', 'mrtr-proxy.js'), '--port', '0', '--', join(work, 'no-such-command')], {
      cwd: install,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /spawn \S*no-such-command ENOENT/);
  });

  for (const { name, major, node, skip } of nodeRuntimes('test/e2e/package.test.ts')) {
    it(`serves the bundled demo from the installed sample config on ${name}`, { skip }, async () => {
      const proxy = await startProxy(
        ['--config', join(installed, 'config', 'proxy.yaml')],
        {},
        { cwd: install, node, bin: join(installed, 'bin', 'mrtr-proxy.js') },
      );
      try {
        const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
        assert.match(version, new RegExp(`^v${major}\\.`));
        const discover = await rpc(proxy.url, 'server/discover');
        const meta = discover.body.result?.['_meta'] as Record<string, { name: string }>;
        assert.equal(meta['io.modelcontextprotocol/serverInfo']?.name, 'mrtr-demo');
        const sum = await rpc(proxy.url, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
        assert.deepEqual(sum.body.result?.['content'], [{ type: 'text', text: '2 + 3 = 5' }]);
      } finally {
        await proxy.stop();
      }
    });
  }
});

describe('the package installed without optional dependencies (npm install --omit=optional)', () => {
  const demo = (dir: string) => ['--', process.execPath, join(dir, 'dist/examples/demo-server.js')];
  const bin = (dir: string) => join(dir, 'bin', 'mrtr-proxy.js');

  it('has no redis; the full install (the container image) has it and loads it for --state-store', async () => {
    assert.ok(!existsSync(join(slim, 'node_modules', 'redis')), 'redis left out');
    assert.ok(existsSync(join(install, 'node_modules', 'redis')), 'docker/install.sh installs redis');
    // The store need not be up: the proxy starts and connects in the background.
    const full = await startProxy(['--state-store', 'redis://127.0.0.1:1', ...demo(installed)], {}, { cwd: install, bin: bin(installed) });
    await full.stop();
  });

  it('serves a stdio upstream', async () => {
    const proxy = await startProxy(demo(slimInstalled), {}, { cwd: slim, bin: bin(slimInstalled) });
    try {
      const sum = await rpc(proxy.url, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
      assert.deepEqual(sum.body.result?.['content'], [{ type: 'text', text: '2 + 3 = 5' }]);
    } finally {
      await proxy.stop();
    }
  });

  it('refuses --state-store redis:// at start, saying what to install', () => {
    const r = spawnSync(process.execPath, [bin(slimInstalled), '--port', '0', '--state-store', 'redis://127.0.0.1:1', ...demo(slimInstalled)], {
      cwd: slim,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /--state-store redis:\/\/ needs the redis package[^"]*: npm install redis/);
    assert.doesNotMatch(r.stderr, /listening on/);
  });
});
