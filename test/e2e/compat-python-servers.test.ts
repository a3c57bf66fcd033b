// Published Python servers on mcp 1.29.0 (installed from wheels by scripts/python-stacks.mjs):
// mcp-server-time 0.6.2 and mcp-server-git 0.6.2 on a temporary repository, each used directly
// with the legacy v1 SDK client and through the proxy with the official 2026-07-28 client
// (support/compat.ts). A missing stack is SKIPPED with a line saying why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { compatSuite } from '../support/compat.js';
import { makeRepo } from '../support/git-repo.js';
import { pythonOf, pythonScript } from '../support/python.js';
import { skipOrFail } from '../support/skip.js';

const python = pythonOf('mcp1', 'e2e/compat-python-servers');
const skip = python === undefined && 'the mcp1 stack is not installed (SKIPPED line above)';
const temp = mkdtempSync(join(tmpdir(), 'mrtr-compat-py-'));
after(() => rmSync(temp, { recursive: true, force: true }));

compatSuite({
  name: 'mcp-server-time 0.6.2',
  skip,
  server: () => ({ command: pythonScript('mcp1', 'mcp-server-time'), args: ['--local-timezone', 'UTC'] }),
  calls: [
    { tool: 'convert_time', arguments: { source_timezone: 'UTC', time: '12:00', target_timezone: 'Asia/Tokyo' } },
    { tool: 'convert_time', arguments: { source_timezone: 'Europe/Paris', time: '08:30', target_timezone: 'America/New_York' } },
    { tool: 'get_current_time', arguments: { timezone: 'Not/AZone' }, isError: true },
  ],
});

const repo = skip ? undefined : makeRepo(temp);
compatSuite({
  name: 'mcp-server-git 0.6.2',
  skip: skip || skipOrFail('e2e/compat-python-servers (mcp-server-git)', repo === undefined && 'git is not installed'),
  server: () => ({ command: pythonScript('mcp1', 'mcp-server-git'), args: ['--repository', repo!], env: { HOME: temp, GIT_CONFIG_NOSYSTEM: '1' } }),
  calls: [
    { tool: 'git_status', arguments: { repo_path: repo } },
    { tool: 'git_log', arguments: { repo_path: repo, max_count: 5 } },
    // Not git_show: its text holds a Python object's address, different in every process.
    { tool: 'git_diff', arguments: { repo_path: repo, target: 'HEAD' } },
    { tool: 'git_diff_unstaged', arguments: { repo_path: repo } },
    { tool: 'git_branch', arguments: { repo_path: repo, branch_type: 'local' } },
  ],
});
