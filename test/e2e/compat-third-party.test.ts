// Compatibility with third-party servers from npm: mcp-sqlite on a temporary database and
// @cyanheads/git-mcp-server on a temporary repository, each used directly with the legacy v1 SDK
// client and through the proxy with the official 2026-07-28 client (see test/support/compat.ts).
// mcp-sqlite is fetched into .cache by scripts/fetch-test-packages.mjs (its sqlite3 compiles).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { compatSuite } from '../support/compat.js';
import { makeRepo } from '../support/git-repo.js';
import { ROOT } from '../support/processes.js';
import { skipOrFail } from '../support/skip.js';

const node = process.execPath;
const pkg = (path: string) => `${ROOT}node_modules/${path}`;
const SQLITE_SERVER = `${ROOT}.cache/mcp-sqlite/node_modules/mcp-sqlite/mcp-sqlite-server.js`;
const noSqlite = skipOrFail(
  'e2e/compat-third-party (mcp-sqlite)',
  !existsSync(SQLITE_SERVER) && 'mcp-sqlite is not in .cache/mcp-sqlite (node scripts/fetch-test-packages.mjs)',
);
const temp = mkdtempSync(join(tmpdir(), 'mrtr-compat-3p-'));
const db = join(temp, 'shop.db');

after(() => rmSync(temp, { recursive: true, force: true }));

compatSuite({
  name: 'mcp-sqlite',
  skip: noSqlite,
  server: () => ({ command: node, args: [SQLITE_SERVER, db] }),
  prepare: async (direct) => {
    await direct.callTool({ name: 'query', arguments: { sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL)' } });
    for (const [name, price] of [
      ['pen', 1.5],
      ['book', 12],
      ['lamp', 30.25],
    ] as const) {
      await direct.callTool({ name: 'create_record', arguments: { table: 'items', data: { name, price } } });
    }
  },
  calls: [
    { tool: 'list_tables' },
    { tool: 'get_table_schema', arguments: { tableName: 'items' } },
    { tool: 'read_records', arguments: { table: 'items' } },
    { tool: 'read_records', arguments: { table: 'items', conditions: { name: 'book' } } },
    { tool: 'read_records', arguments: { table: 'items', limit: 2, offset: 1 } },
    { tool: 'query', arguments: { sql: 'SELECT name, price FROM items WHERE price > ? ORDER BY price DESC', values: [5] } },
    { tool: 'query', arguments: { sql: 'SELECT * FROM missing_table' }, isError: true },
  ],
});

const repo = makeRepo(temp);
if (repo === undefined) {
  skipOrFail('e2e/compat-third-party (@cyanheads/git-mcp-server)', 'git is not installed: the git server compatibility test cannot run');
} else {
  compatSuite({
    name: '@cyanheads/git-mcp-server',
    server: () => ({ command: node, args: [pkg('@cyanheads/git-mcp-server/dist/index.js')], env: { MCP_LOG_LEVEL: 'error', HOME: temp } }),
    calls: [
      { tool: 'git_status', arguments: { path: repo } },
      { tool: 'git_log', arguments: { path: repo } },
      { tool: 'git_show', arguments: { path: repo, object: 'v1.0.0' } },
      { tool: 'git_diff', arguments: { path: repo } },
      { tool: 'git_branch', arguments: { path: repo } },
      { tool: 'git_tag', arguments: { path: repo } },
      { prompt: 'git_wrapup' },
    ],
  });
}
