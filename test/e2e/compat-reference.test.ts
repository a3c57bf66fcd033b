// Compatibility with the reference servers from npm (modelcontextprotocol/servers): each one is
// used directly with the legacy v1 SDK client and through the proxy with the official 2026-07-28
// client, and must list and answer the same (test/support/compat.ts says what may differ).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { compatSuite } from '../support/compat.js';
import { EVERYTHING, FILESYSTEM, ROOT } from '../support/processes.js';

const node = process.execPath;
const pkg = (path: string) => `${ROOT}node_modules/${path}`;
const temp = mkdtempSync(join(tmpdir(), 'mrtr-compat-'));
const files = join(temp, 'files');
mkdirSync(join(files, 'notes'), { recursive: true });
writeFileSync(join(files, 'hello.txt'), 'hello from a file\nsecond line\n');
writeFileSync(join(files, 'notes', 'todo.md'), '# todo\n- compare servers\n');

after(() => rmSync(temp, { recursive: true, force: true }));

compatSuite({
  name: 'server-filesystem',
  server: () => ({ command: node, args: [FILESYSTEM, files] }),
  calls: [
    { tool: 'list_allowed_directories' },
    { tool: 'read_text_file', arguments: { path: join(files, 'hello.txt') } },
    { tool: 'read_text_file', arguments: { path: join(files, 'hello.txt'), head: 1 } },
    { tool: 'read_multiple_files', arguments: { paths: [join(files, 'hello.txt'), join(files, 'notes', 'todo.md')] } },
    { tool: 'list_directory', arguments: { path: files } },
    { tool: 'directory_tree', arguments: { path: files } },
    { tool: 'search_files', arguments: { path: files, pattern: '**/*.md' } },
    { tool: 'read_text_file', arguments: { path: join(tmpdir(), 'outside.txt') }, isError: true },
  ],
});

// Each path gets its own graph file; the same writes then give the same graphs.
let memoryFile = 0;
compatSuite({
  name: 'server-memory',
  server: () => ({
    command: node,
    args: [pkg('@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: join(temp, `memory-${++memoryFile}.jsonl`) },
  }),
  calls: [
    { tool: 'read_graph' },
    { tool: 'search_nodes', arguments: { query: 'nothing here' } },
    { tool: 'open_nodes', arguments: { names: ['nobody'] } },
    { resource: 'memory://knowledge-graph' },
  ],
});

compatSuite({
  name: 'server-sequential-thinking',
  server: () => ({ command: node, args: [pkg('@modelcontextprotocol/server-sequential-thinking/dist/index.js')], env: { DISABLE_THOUGHT_LOGGING: 'true' } }),
  calls: [
    { tool: 'sequentialthinking', arguments: { thought: 'First, compare.', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true } },
    { tool: 'sequentialthinking', arguments: { thought: 'Then conclude.', thoughtNumber: 2, totalThoughts: 2, nextThoughtNeeded: false } },
  ],
});

compatSuite({
  name: 'server-everything',
  server: () => ({ command: node, args: [EVERYTHING, 'stdio'] }),
  calls: [
    { tool: 'echo', arguments: { message: 'same either way' } },
    { tool: 'get-sum', arguments: { a: 2, b: 40 } },
    { tool: 'get-structured-content', arguments: { location: 'New York' } },
    { tool: 'get-annotated-message', arguments: { messageType: 'error', includeImage: false } },
    { prompt: 'simple-prompt' },
    { prompt: 'args-prompt', arguments: { city: 'Paris', state: 'France' } },
    { resource: 'demo://resource/static/document/architecture.md' },
    { resource: 'demo://resource/static/document/features.md' },
  ],
});
