// Where mcp-uplift 0.2.6 (github.com/MohibShaikh/mcp-uplift, tag v0.2.6) is on this machine. It is
// plain JavaScript with no dependencies and no npm package of that version, so the bench runs its
// `src/cli.js` from a checkout: MCP_UPLIFT_DIR, or tag v0.2.6 extracted once into bench/.cache/ from
// a git directory that holds it (MCP_UPLIFT_GIT, by default this machine's mirror of the repository).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ROOT } from './procs.js';

export const UPLIFT_TAG = 'v0.2.6';
const DEFAULT_GIT = '/work/.mirror/MohibShaikh+mcp-uplift/repo';
const CACHED = `${ROOT}bench/.cache/mcp-uplift-${UPLIFT_TAG}`;

export type UpliftCheckout = { dir: string; version: string } | { missing: string };

const HOW =
  `get it with \`git clone --branch ${UPLIFT_TAG} https://github.com/MohibShaikh/mcp-uplift\` and set MCP_UPLIFT_DIR to that checkout, ` +
  `or set MCP_UPLIFT_GIT to a git directory holding tag ${UPLIFT_TAG}`;

function versionOf(dir: string): string | undefined {
  if (!existsSync(`${dir}/src/cli.js`)) return undefined;
  try {
    return String((JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { version?: unknown }).version ?? '');
  } catch {
    return undefined;
  }
}

export function findUplift(env: NodeJS.ProcessEnv = process.env): UpliftCheckout {
  const given = env['MCP_UPLIFT_DIR'];
  if (given) {
    const version = versionOf(given);
    return version === undefined ? { missing: `MCP_UPLIFT_DIR=${given} has no src/cli.js and package.json of mcp-uplift; ${HOW}` } : { dir: given, version };
  }
  const cached = versionOf(CACHED);
  if (cached !== undefined) return { dir: CACHED, version: cached };
  const git = env['MCP_UPLIFT_GIT'] ?? DEFAULT_GIT;
  if (!existsSync(git)) return { missing: `no MCP_UPLIFT_DIR, nothing in bench/.cache/, and no git directory at ${git}; ${HOW}` };
  try {
    rmSync(CACHED, { recursive: true, force: true });
    mkdirSync(CACHED, { recursive: true });
    const tar = `${CACHED}.tar`;
    execFileSync('git', ['--git-dir', git, 'archive', '--format=tar', '-o', tar, UPLIFT_TAG], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync('tar', ['-xf', tar, '-C', CACHED], { stdio: ['ignore', 'ignore', 'pipe'] });
    rmSync(tar, { force: true });
  } catch (err) {
    rmSync(CACHED, { recursive: true, force: true });
    return { missing: `could not extract ${UPLIFT_TAG} from ${git} (${(err as Error).message.split('\n')[0]}); ${HOW}` };
  }
  const version = versionOf(CACHED);
  return version === undefined ? { missing: `${UPLIFT_TAG} from ${git} has no src/cli.js; ${HOW}` } : { dir: CACHED, version };
}
