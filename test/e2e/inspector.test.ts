// The official MCP Inspector 2.12.0 against the proxy in front of the legacy demo server, in the
// 2026-07-28 era: its web UI driven in Debian's headless chromium (puppeteer-core) through an
// elicitation (two questions: three MRTR rounds) and a sampling request, and its mcpdo CLI through
// the same elicitation. Without chromium the web UI test is SKIPPED with a line saying why.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, launch, type Page } from 'puppeteer-core';
import { INSPECTOR_WEB, MCPDO, mcpdo, startInspectorWeb } from '../support/inspector.js';
import { ROOT, startProxy, type ProxyProcess } from '../support/processes.js';
import { skipOrFail } from '../support/skip.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const noChromium = CHROMIUM ? false : 'chromium is not installed (apt-get install -y chromium): the Inspector web UI test cannot run';
const noInspector = existsSync(INSPECTOR_WEB) && existsSync(MCPDO) ? false : 'the Inspector is not in .cache/inspector (node scripts/fetch-test-packages.mjs)';

const home = mkdtempSync(join(tmpdir(), 'mrtr-inspector-'));
let proxy: ProxyProcess;
before(async () => {
  proxy = await startProxy(['--', process.execPath, join(ROOT, 'dist/examples/demo-server.js')]);
});
after(async () => {
  await proxy?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('Inspector 2.12.0 web UI in chromium', { skip: skipOrFail('e2e/inspector (web UI)', noInspector || noChromium) }, () => {
  let web: Awaited<ReturnType<typeof startInspectorWeb>>;
  let browser: Browser;
  let page: Page;
  before(async () => {
    web = await startInspectorWeb(proxy.url, home);
    browser = await launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--headless=new'], timeout: 20_000 });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(web.url, { waitUntil: 'networkidle2', timeout: 30_000 });
  });
  after(async () => {
    await browser?.close();
    await web?.stop();
  });

  /**
   * Opens the Tools tab and the tool `name`, until its form shows `shown` (a JS expression). The
   * tab answers once the tool list loaded; a click while a dialog closes may land on its overlay.
   */
  async function openTool(name: string, shown: string): Promise<void> {
    await page.waitForFunction("!document.querySelector('[role=dialog]')", { timeout: 10_000 });
    for (let attempt = 0; ; attempt++) {
      const tool = await page.waitForSelector(`::-p-text(${name})`, { timeout: 3000 }).catch(() => undefined);
      if (tool) {
        await tool.click();
        const open = await page.waitForFunction(shown, { timeout: 3000 }).catch(() => undefined);
        if (open) return;
      } else await page.click('label[for$="-Tools"]');
      if (attempt >= 5) throw new Error(`the Tools tab never opened ${name}`);
    }
  }

  it('connects in the 2026-07-28 era', async () => {
    await (await page.waitForSelector('[role=switch]'))!.click();
    await page.waitForSelector('::-p-text(Connected)', { timeout: 20_000 });
    await page.waitForSelector('::-p-text(MCP 2026-07-28)', { timeout: 10_000 });
  });

  it('books a table: two elicitation forms, three MRTR rounds', async () => {
    await openTool('book_table', "document.body.innerText.includes('Books a table at Trattoria MCP')");
    await (await page.waitForSelector('::-p-text(Execute Tool)'))!.click();
    await page.waitForSelector('[role=dialog] ::-p-text(How many people)', { timeout: 20_000 });
    const fields = await page.$$('[role=dialog] input:not([type=checkbox]), [role=dialog] textarea');
    assert.equal(fields.length, 2, 'party size and time');
    await fields[0]!.type('4');
    await fields[1]!.type('19:30');
    await (await page.waitForSelector('[role=dialog] ::-p-text(Submit)'))!.click();
    await page.waitForSelector('[role=dialog] ::-p-text(Book a table for 4 at 19:30)', { timeout: 20_000 });
    await (await page.waitForSelector('[role=dialog] ::-p-text(Submit)'))!.click();
    await page.waitForSelector('::-p-text(Booked: a table for 4 at 19:30. Reference TBL-041930.)', { timeout: 20_000 });
  });

  it("summarizes text: a sampling request answered in the UI reaches the server's tool", async () => {
    // Its form's one field is labelled `text`.
    const textField = "[...document.querySelectorAll('label')].find((l) => l.textContent.trim().replace(/\\s*\\*$/, '') === 'text')?.htmlFor";
    await openTool('summarize', textField);
    const fieldId = (await (await page.waitForFunction(textField)).jsonValue()) as string;
    await page.type(`[id="${fieldId}"]`, 'MRTR lets servers ask their clients questions.');
    await (await page.waitForSelector('::-p-text(Execute Tool)'))!.click();
    await page.waitForSelector('[role=dialog] ::-p-text(Sampling Request)', { timeout: 20_000 });
    await page.type('[role=dialog] textarea', 'Servers can ask mid-call.');
    await (await page.waitForSelector('[role=dialog] ::-p-text(Send Response)'))!.click();
    await page.waitForSelector('::-p-text(Summary (by stub-model): Servers can ask mid-call.)', { timeout: 20_000 });
  });
});

describe('Inspector 2.12.0 mcpdo CLI', { skip: skipOrFail('e2e/inspector (mcpdo CLI)', noInspector) }, () => {
  let cli: Awaited<ReturnType<typeof mcpdo>>;
  before(async () => {
    cli = await mcpdo(home);
  });
  after(() => cli?.stop());

  it('connects in the 2026-07-28 era and books a table through two elicitations', async () => {
    const connected = await cli.json('connect', '--era', 'modern', proxy.url);
    assert.equal(connected['protocolEra'], 'modern', JSON.stringify(connected));
    const first = (await cli.json('--conn', proxy.url, 'tools/call', 'book_table', 'name:=Ada'))['elicitationPending'] as Record<string, unknown>;
    assert.equal(first?.['message'], 'How many people, and at what time?');
    assert.equal(first['origin'], 'input-required', 'asked as an MRTR round');
    const second = (await cli.json('elicitation/respond', String(first['elicitationId']), 'partySize:=4', 'time:=19:30'))['elicitationPending'] as Record<
      string,
      unknown
    >;
    assert.equal(second?.['message'], 'Book a table for 4 at 19:30 under "Ada"?');
    const booked = await cli.json('elicitation/respond', String(second['elicitationId']), 'confirm:=true');
    assert.deepEqual(booked['structuredContent'], { partySize: 4, time: '19:30', reference: 'TBL-041930' });
  });

  it('gets a clear error for sampling, which mcpdo does not declare', async () => {
    const refused = await cli.json('--conn', proxy.url, 'tools/call', 'summarize', 'text:=hello');
    assert.match(JSON.stringify(refused), /sampling\/createMessage, which needs the sampling client capability/);
  });
});
