// A small git repository for the git servers of the compatibility suite, made the same way each run.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A repository under `temp` with two commits at fixed dates, so every view of it is the same each run; undefined without git. */
export function makeRepo(temp: string): string | undefined {
  const repo = join(temp, 'repo');
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    GIT_AUTHOR_DATE: '2026-01-02T03:04:05Z',
    GIT_COMMITTER_DATE: '2026-01-02T03:04:05Z',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: temp,
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
  try {
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { env, stdio: 'ignore' });
  } catch {
    return undefined;
  }
  writeFileSync(join(repo, 'README.md'), '# demo\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'Add a README');
  writeFileSync(join(repo, 'notes.txt'), 'one\n');
  git('add', 'notes.txt');
  git('commit', '-q', '-m', 'Add notes');
  git('tag', 'v1.0.0');
  writeFileSync(join(repo, 'notes.txt'), 'one\ntwo\n');
  return repo;
}
