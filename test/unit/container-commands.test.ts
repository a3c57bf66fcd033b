// The command lines the container files give the proxy (the Dockerfile's CMD, each instance of
// docker-compose.example.yml) must be ones it accepts: a container listens beyond loopback, which
// the proxy refuses without client authentication unless told otherwise. Resolved here, not run
// (the tests bind 127.0.0.1 only); the installed sample config is the checkout's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { resolveCli } from '../../src/config/resolve.js';
import { ROOT, TEST_STATE_KEY } from '../support/processes.js';

const INSTALLED_CONFIG = '/opt/mrtr-proxy/node_modules/mrtr-proxy/config/proxy.yaml';
const env = { MRTR_STATE_KEY: TEST_STATE_KEY };
const local = (args: string[]) => args.map((a) => (a === INSTALLED_CONFIG ? join(ROOT, 'config', 'proxy.yaml') : a));

function dockerfileCmd(): string[] {
  const line = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('CMD '));
  assert.ok(line, 'the Dockerfile has a CMD');
  return JSON.parse(line.slice(4)) as string[];
}

describe('container command lines', () => {
  it("the Dockerfile's CMD serves the sample config on 0.0.0.0:8080", () => {
    const args = dockerfileCmd();
    assert.ok(args.includes(INSTALLED_CONFIG), 'CMD uses the installed sample config');
    const parsed = resolveCli(local(args), env);
    assert.equal(parsed.action, 'run');
    if (parsed.action !== 'run') return;
    assert.equal(parsed.config.host, '0.0.0.0');
    assert.equal(parsed.config.port, 8080);
    assert.equal(parsed.config.defaultUpstream, 'demo');
  });

  it('without --insecure-no-auth that command line is refused, naming the way out', () => {
    const args = dockerfileCmd().filter((a) => a !== '--insecure-no-auth');
    assert.throws(() => resolveCli(local(args), env), /not loopback.*--auth-issuer.*--insecure-no-auth/);
  });

  it('each proxy instance of docker-compose.example.yml advertises itself and shares the Redis ledger', () => {
    const compose = parseYaml(readFileSync(join(ROOT, 'docker-compose.example.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { command?: string[]; build?: string }>;
    };
    const proxies = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
    assert.equal(proxies.length, 2);
    for (const [name, service] of proxies) {
      const parsed = resolveCli(local(service.command ?? []), env);
      assert.equal(parsed.action, 'run', name);
      if (parsed.action !== 'run') continue;
      assert.equal(parsed.config.advertiseUrl?.href, `http://${name}:8080/`);
      assert.equal(parsed.config.stateStore?.href, 'redis://redis:6379');
    }
  });
});
