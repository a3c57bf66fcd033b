// The dashboard's shadow differences panel in a real headless browser (Debian's chromium driven
// by puppeteer-core): a call whose migrated twin answers differently appears in the panel, fed
// over the dashboard's WebSocket. Skipped, loudly, when chromium is not installed (.ci/run installs it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { launch, type Browser } from 'puppeteer-core';
import { startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';
import { shadowConfig, startTwin } from '../support/shadow.js';
import { skipOrFail } from '../support/skip.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const skip = skipOrFail(
  'test/e2e/shadow-dashboard.test.ts',
  !CHROMIUM && 'chromium is not installed (apt-get install -y chromium): the shadow dashboard browser test cannot run',
);

describe('--dashboard shadow differences', { skip }, () => {
  let twin: Running;
  let proxy: ProxyProcess;
  let browser: Browser;
  before(async () => {
    const started = await startTwin();
    twin = started;
    proxy = await startProxy(['--dashboard', '--config', shadowConfig(started.url, '{upstream: migrated, tools: [add, average]}')]);
    browser = await launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--headless=new'], timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
    await proxy?.stop();
    await twin?.stop();
  });

  it('shows a difference the candidate made, and none for a call that matched', async () => {
    const page = await browser.newPage();
    await page.goto(proxy.url.replace(/\/mcp$/, '/dashboard'), { waitUntil: 'load', timeout: 10_000 });
    await page.waitForFunction("document.getElementById('conn').textContent === 'live'", { timeout: 10_000 });
    assert.equal(await page.$eval('#shadow', (e) => e.textContent), 'no differences');
    const add = await rpc(proxy.url, 'tools/call', { name: 'add', arguments: { a: 2, b: 2 } });
    const textOf = (r: typeof add) => JSON.stringify(r.body.result?.['content']);
    assert.equal(textOf(add), '[{"type":"text","text":"4"}]');
    const average = await rpc(proxy.url, 'tools/call', { name: 'average', arguments: { values: [1, 2] } });
    assert.equal(textOf(average), '[{"type":"text","text":"1"}]', 'the client gets the primary’s answer');
    await page.waitForSelector('tr.shadow-row[data-target="average"]', { timeout: 10_000 });
    const row = await page.$eval('tr.shadow-row', (tr) => tr.textContent ?? '');
    assert.match(row, /legacy → migrated.*tools\/call.*average.*differ.*content\[0\]\.text changed/);
    assert.equal(await page.$$eval('tr.shadow-row', (rows) => rows.length), 1, 'add matched: no row for it');
    assert.doesNotMatch(row, /1\.5/, 'the panel shows paths, not values');
  });
});
