// --dashboard in a real headless browser (Debian's chromium driven by puppeteer-core): a waiting
// interaction appears on the page and disappears once the client answers. Skipped, loudly, when
// chromium is not installed (.ci/run installs it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launch, type Browser, type Page } from 'puppeteer-core';
import WebSocket from 'ws';
import { ROOT, startProxy, type ProxyProcess } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const skip = skipOrFail(
  'test/e2e/dashboard.test.ts',
  !CHROMIUM && 'chromium is not installed (apt-get install -y chromium): the dashboard browser test cannot run',
);

describe('--dashboard', { skip }, () => {
  let proxy: ProxyProcess;
  let browser: Browser;
  let page: Page;
  let dashboard: string;
  before(async () => {
    proxy = await startProxy(['--dashboard', '--', process.execPath, join(ROOT, 'dist/test/fixtures/legacy-server.js')]);
    dashboard = proxy.url.replace(/\/mcp$/, '/dashboard');
    browser = await launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--headless=new'], timeout: 20_000 });
    page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 820 });
  });
  after(async () => {
    await browser?.close();
    await proxy?.stop();
  });

  it('shows a waiting interaction appear and disappear', async () => {
    await page.goto(dashboard, { waitUntil: 'load', timeout: 10_000 });
    await page.waitForFunction("document.getElementById('conn').textContent === 'live'", { timeout: 10_000 });
    await page.waitForFunction("document.getElementById('upstreams').textContent.includes('ready')", { timeout: 10_000 });
    const pending = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ALL_CAPS }));
    await page.waitForSelector('tr.waiting-row[data-target="ask-name"]', { timeout: 10_000 });
    const row = await page.$eval('tr.waiting-row', (tr) => tr.textContent ?? '');
    assert.match(row, /ask-name.*default.*1.*elicitation\/create/);
    assert.equal(await page.$eval('#waitcount', (e) => e.textContent), '1');
    if (process.env['MRTR_SCREENSHOT']) await page.screenshot({ path: join(ROOT, 'docs/dashboard.png') });
    await rpc(
      proxy.url,
      'tools/call',
      {
        name: 'ask-name',
        arguments: {},
        requestState: pending.requestState,
        inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } },
      },
      { caps: ALL_CAPS },
    );
    await page.waitForFunction("document.querySelectorAll('tr.waiting-row').length === 0", { timeout: 10_000 });
    await page.waitForFunction("document.getElementById('recent').textContent.includes('ended')", { timeout: 10_000 });
    assert.equal(await page.$eval('#inflight', (e) => e.textContent), '0');
    const recent = await page.$eval('#recent', (e) => e.textContent ?? '');
    assert.match(recent, /asked/);
    assert.match(recent, /answered/);
    assert.match(recent, /ended/);
  });
});

// Without a browser: the socket's upgrade as a page of each origin would send it.
describe('--dashboard socket origins', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--dashboard', '--', process.execPath, join(ROOT, 'dist/test/fixtures/legacy-server.js')]);
  });
  after(async () => {
    await proxy?.stop();
  });

  /** The upgrade's status (101 once open) and, when open, the first frame's upstream names. */
  const upgrade = (origin: string | undefined) => {
    const url = proxy.url.replace(/^http/, 'ws').replace(/\/mcp$/, '/dashboard/ws');
    return new Promise<{ status: number; upstreams?: string[] }>((resolve) => {
      const ws = new WebSocket(url, origin === undefined ? {} : { headers: { origin } });
      ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
      ws.once('message', (data) => {
        const frame = JSON.parse(String(data)) as { upstreams: { name: string }[] };
        resolve({ status: 101, upstreams: frame.upstreams.map((u) => u.name) });
        ws.close();
      });
      ws.on('error', () => {});
    });
  };

  it("opens for the page's own origin, and for a program that sends none", async () => {
    const own = new URL(proxy.url).origin;
    assert.deepEqual(await upgrade(own), { status: 101, upstreams: ['default'] });
    assert.deepEqual(await upgrade(undefined), { status: 101, upstreams: ['default'] });
  });

  it('refuses pages of another origin: another site, another loopback port, another scheme', async () => {
    const own = new URL(proxy.url);
    const otherPort = String(Number(own.port) === 65535 ? 1 : Number(own.port) + 1);
    for (const origin of ['http://evil.example', `http://${own.hostname}:${otherPort}`, `http://localhost:${otherPort}`, `https://${own.host}`, 'null']) {
      assert.deepEqual(await upgrade(origin), { status: 403 }, origin);
    }
  });
});
