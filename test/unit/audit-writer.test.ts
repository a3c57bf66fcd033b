// The audit file writer: queued lines reach the file in order, the file rotates by size, a close
// flushes everything queued, and the files it creates are its owner's alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditWriter } from '../../src/audit/writer.js';
import { createLogger, type Logger } from '../../src/telemetry/logger.js';

const log = createLogger('error');
const lines = (f: string) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { n: number });

describe('audit writer', () => {
  it('returns before writing and has every line on disk after close', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    const w = new AuditWriter({ file, maxBytes: 1 << 20, log });
    for (let n = 0; n < 100; n++) w.write({ n });
    assert.equal(existsSync(file), false, 'nothing is written in the caller’s turn');
    await w.close();
    assert.deepEqual(
      lines(file).map((l) => l.n),
      [...Array(100).keys()],
    );
    w.write({ n: 100 });
    await w.flush();
    assert.equal(lines(file).length, 100, 'writes after close are ignored');
  });

  it('renames the file to FILE.1 when it would pass the size', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    const w = new AuditWriter({ file, maxBytes: 1024, log });
    const pad = 'x'.repeat(100);
    for (let n = 0; n < 30; n++) {
      w.write({ n, pad });
      await w.flush();
    }
    await w.close();
    const current = lines(file);
    const previous = lines(`${file}.1`);
    assert.ok(readFileSync(file).length <= 1024 && readFileSync(`${file}.1`).length <= 1024);
    assert.equal(current.at(-1)!.n, 29);
    assert.equal(previous.at(-1)!.n + 1, current[0]!.n, 'no line lost at the rotation');
  });

  it('drops lines beyond the queue bound instead of growing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    const w = new AuditWriter({ file, maxBytes: 1 << 20, log, maxQueued: 10 });
    for (let n = 0; n < 50; n++) w.write({ n });
    await w.close();
    assert.equal(lines(file).length, 10);
  });

  it('creates the file and the one after a rotation readable by the owner only', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    const w = new AuditWriter({ file, maxBytes: 256, log });
    for (let n = 0; n < 10; n++) {
      w.write({ n, pad: 'x'.repeat(60) });
      await w.flush();
    }
    await w.close();
    assert.ok(existsSync(`${file}.1`), 'it rotated');
    for (const f of [file, `${file}.1`]) assert.equal((statSync(f).mode & 0o777).toString(8), '600', f);
  });

  it('leaves an existing file as the operator made it, and warns once when others may read it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.jsonl');
    writeFileSync(file, '');
    chmodSync(file, 0o640);
    const warned: Array<{ message: string; fields: unknown }> = [];
    const spy = { warn: (message: string, fields: unknown) => void warned.push({ message, fields }) } as unknown as Logger;
    const w = new AuditWriter({ file, maxBytes: 1 << 20, log: spy });
    w.write({ n: 1 });
    await w.flush();
    w.write({ n: 2 });
    await w.close();
    assert.equal((statSync(file).mode & 0o777).toString(8), '640');
    assert.equal(warned.length, 1);
    assert.match(warned[0]!.message, /may be read by others/);
    assert.deepEqual(warned[0]!.fields, { file, mode: '0640' });
  });
});
