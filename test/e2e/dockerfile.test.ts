// The container image without a container daemon: the Dockerfile's instructions replayed on this
// machine, each stage in a directory of its own standing for its filesystem. The build stage gets
// exactly the paths its COPY lines name from a clean checkout (tracked files, and new ones not
// ignored: what the next commit holds) and runs its RUN lines; the final stage copies the tarball
// and runs its install step; then the ENTRYPOINT with the CMD serves the demo (on a free loopback
// port instead of 0.0.0.0:8080) and the HEALTHCHECK's command finds it there.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { freePort } from '../support/ports.js';
import { type Running, ROOT, startProcess, TEST_STATE_KEY } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions: continuation lines joined, comments and blank lines dropped. */
function instructions(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return logical
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^(\S+)\s+(.*)$/.exec(l);
      assert.ok(m, `an instruction: ${l}`);
      return { op: m[1]!.toUpperCase(), args: m[2]! };
    });
}

/** Each stage: from FROM to the next FROM. */
function stages(all: Instruction[]): Instruction[][] {
  const out: Instruction[][] = [];
  for (const i of all) {
    if (i.op === 'FROM') out.push([]);
    out.at(-1)?.push(i);
  }
  return out;
}

const execForm = (args: string): string[] => JSON.parse(args) as string[];

/** The files of a clean checkout, relative to the repository. */
function checkoutFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && existsSync(join(ROOT, f)));
}

/** A stage's filesystem: container paths become paths under `root`. */
class Stage {
  workdir = '/';
  env: Record<string, string> = {};
  constructor(readonly root: string) {
    // What the base image has.
    for (const dir of ['tmp', 'root', 'home/node']) mkdirSync(join(root, dir), { recursive: true });
  }

  at(path: string): string {
    return path.startsWith('/') ? join(this.root, path) : join(this.root, this.workdir, path);
  }

  /** Absolute container paths in a shell command, moved under the root (no other absolute path is expected). */
  shell(command: string): string {
    return command.replace(/(^|[\s=])(\/(?:tmp|src|opt|root|home)(?:\/[^\s;&|]*)?)/g, (_, pre: string, path: string) => `${pre}${this.root}${path}`);
  }
}

const work = mkdtempSync(join(tmpdir(), 'mrtr-dockerfile-'));
const build = new Stage(join(work, 'build'));
const image = new Stage(join(work, 'image'));
let entrypoint: string[] = [];
let healthcheck: string[] = [];

/** COPY [--from=STAGE] SRC... DEST, from the checkout or from the build stage. */
function copy(stage: Stage, args: string, files: readonly string[]): void {
  const parts = args.split(/\s+/);
  const from = parts[0]?.startsWith('--from=') ? parts.shift() : undefined;
  const dest = parts.pop()!;
  const toDir = dest.endsWith('/') || parts.length > 1;
  for (const src of parts) {
    if (from !== undefined) {
      assert.equal(from, '--from=build', 'the final stage copies from the build stage only');
      cpSync(build.at(src), toDir ? join(stage.at(dest), basename(src)) : stage.at(dest), { recursive: true });
      continue;
    }
    const matched = files.filter((f) => f === src || f.startsWith(`${src}/`));
    assert.ok(matched.length > 0, `COPY ${src}: nothing of that name in a clean checkout`);
    for (const f of matched) {
      const target = f === src ? (toDir ? join(stage.at(dest), basename(f)) : stage.at(dest)) : join(stage.at(dest), f.slice(src.length + 1));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(ROOT, f), target);
    }
  }
}

function replay(stage: Stage, steps: Instruction[], files: readonly string[]): void {
  for (const { op, args } of steps) {
    switch (op) {
      case 'FROM':
      case 'EXPOSE':
      case 'STOPSIGNAL':
      case 'USER':
        break;
      case 'WORKDIR':
        stage.workdir = args;
        mkdirSync(stage.at('.'), { recursive: true });
        break;
      case 'ENV': {
        const [name, ...value] = args.split('=');
        stage.env[name!] = value.join('=');
        break;
      }
      case 'COPY':
        copy(stage, args, files);
        break;
      case 'RUN': {
        const r = spawnSync('sh', ['-c', stage.shell(args)], {
          cwd: stage.at('.'),
          env: { ...process.env, ...stage.env },
          encoding: 'utf8',
          timeout: 300_000,
        });
        assert.equal(r.status, 0, `RUN ${args}\n${r.stdout}\n${r.stderr}`);
        break;
      }
      case 'HEALTHCHECK':
        healthcheck = execForm(args.slice(args.indexOf('CMD ') + 4)).map((a) => stage.shell(a));
        break;
      case 'ENTRYPOINT':
        entrypoint = execForm(args).map((a) => stage.shell(a));
        break;
      case 'CMD':
        entrypoint.push(...execForm(args).map((a) => stage.shell(a)));
        break;
      default:
        assert.fail(`the replay does not know the Dockerfile instruction ${op}: teach test/e2e/dockerfile.test.ts`);
    }
  }
}

/** The image's command on a free loopback port: a test never listens beyond 127.0.0.1. */
function onLoopback(command: string[], port: number): string[] {
  return command.map((a, i) => (command[i - 1] === '--port' ? String(port) : command[i - 1] === '--host' ? '127.0.0.1' : a));
}

before(() => {
  const [first, second, ...more] = stages(instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')));
  assert.ok(first && second && more.length === 0, 'a build stage and a final stage');
  const files = checkoutFiles();
  replay(build, first, files);
  replay(image, second, files);
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('the Dockerfile replayed without Docker', () => {
  let proxy: Running | undefined;
  let port = 0;
  after(() => proxy?.stop());

  it('builds the tarball, installs it, and the image command serves the demo on the port it is given', async () => {
    assert.ok(existsSync(image.at('/opt/mrtr-proxy/node_modules/.bin/mrtr-proxy')), 'the install step installed the command');
    port = await freePort();
    const [command, ...args] = onLoopback(entrypoint, port);
    assert.ok(args.includes(String(port)), `the image command names its port: ${entrypoint.join(' ')}`);
    proxy = await startProcess(command!, args, /listening on (http:\/\/\S+)/, {
      env: { ...image.env, MRTR_STATE_KEY: TEST_STATE_KEY },
      cwd: image.at('/home/node'),
    });
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    assert.equal(ready.status, 200);
    const discover = await rpc(proxy.ready, 'server/discover');
    const meta = discover.body.result?.['_meta'] as Record<string, { name: string }>;
    assert.equal(meta['io.modelcontextprotocol/serverInfo']?.name, 'mrtr-demo');
  });

  it('has a health check that finds the proxy on the port it was given, and fails once it is gone', async () => {
    assert.ok(proxy, 'the proxy runs');
    const [command, ...args] = healthcheck;
    const check = () => spawnSync(command!, [...args, String(proxy!.child.pid)], { encoding: 'utf8', timeout: 20_000 });
    const up = check();
    assert.equal(up.status, 0, up.stderr);
    await proxy.stop();
    const down = check();
    assert.equal(down.status, 1);
    assert.match(down.stderr, /mrtr-proxy healthcheck: /);
  });
});
