// The operations options: --metrics-port, --access-log, their file keys, and the OTEL_* decision
// made once at the edge (a value the proxy cannot honour is a ConfigError, exit 2).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { writeConfig } from '../support/config.js';

const CMD = ['--', 'node', 'server.js'];

function run(argv: readonly string[], env: Record<string, string | undefined> = {}): ProxyConfig {
  const r = resolveCli(argv, env);
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  return r.config;
}

function refused(argv: readonly string[], pattern: RegExp, env: Record<string, string | undefined> = {}): void {
  assert.throws(
    () => resolveCli(argv, env),
    (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
  );
}

describe('operations options', () => {
  it('defaults: metrics on the MCP listener, access log on, tracing off', () => {
    const c = run(CMD);
    assert.equal(c.metricsPort, undefined);
    assert.equal(c.accessLog, true);
    assert.deepEqual(c.tracing, { kind: 'off' });
  });

  it('takes --metrics-port and --access-log', () => {
    const c = run(['--metrics-port', '9464', '--access-log', 'off', ...CMD]);
    assert.equal(c.metricsPort, 9464);
    assert.equal(c.accessLog, false);
    assert.equal(run(['--metrics-port', '0', '--stdio', ...CMD]).metricsPort, 0, 'a free port, also with --stdio');
  });

  it('refuses bad values, naming the option', () => {
    refused(['--metrics-port', '70000', ...CMD], /^--metrics-port: 70000 is out of range/);
    refused(['--metrics-port', 'x', ...CMD], /^--metrics-port: expected a whole number/);
    refused(['--access-log', 'yes', ...CMD], /^--access-log: expected on or off, got 'yes'/);
    refused(CMD, /^OTEL_TRACES_EXPORTER: 'zipkin' is not supported/, { OTEL_TRACES_EXPORTER: 'zipkin' });
    refused(CMD, /^OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' is not supported/, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
  });

  it('reads the tracing plan from the environment', () => {
    assert.deepEqual(run(CMD, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).tracing, {
      kind: 'otlp',
      protocol: 'http/json',
    });
  });

  it('reads listen.metricsPort and accessLog from the file; flags override them', () => {
    const file = writeConfig('listen: { metricsPort: 9100 }\naccessLog: off\nupstreams:\n  a: { stdio: { command: node } }\n');
    const c = run(['--config', file]);
    assert.equal(c.metricsPort, 9100);
    assert.equal(c.accessLog, false);
    const o = run(['--config', file, '--metrics-port', '9200', '--access-log', 'on']);
    assert.equal(o.metricsPort, 9200);
    assert.equal(o.accessLog, true);
    refused(['--config', writeConfig('accessLog: maybe\nupstreams:\n  a: { stdio: { command: node } }\n')], /accessLog/);
  });

  it('takes --fast-lane (default on) and fastLane from the file; flags override it', () => {
    assert.equal(run(CMD).fastLane, true);
    assert.equal(run(['--fast-lane', 'off', ...CMD]).fastLane, false);
    refused(['--fast-lane', 'fast', ...CMD], /^--fast-lane: expected on or off, got 'fast'/);
    const file = writeConfig('fastLane: off\nupstreams:\n  a: { stdio: { command: node } }\n');
    assert.equal(run(['--config', file]).fastLane, false);
    assert.equal(run(['--config', file, '--fast-lane', 'on']).fastLane, true);
    refused(['--config', writeConfig('fastLane: sometimes\nupstreams:\n  a: { stdio: { command: node } }\n')], /fastLane/);
  });

  it("sets no V8 flag: --heap-growth and heapGrowth are refused (V8 flags go on node's own command line)", () => {
    refused(['--heap-growth', '30', ...CMD], /--heap-growth/);
    refused(['--config', writeConfig('heapGrowth: 30\nupstreams:\n  a: { stdio: { command: node } }\n')], /heapGrowth/);
  });
});
