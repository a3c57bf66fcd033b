// The pure parts of watching what the process holds: addresses as /proc writes them, an
// upstream URL's endpoint, and when the descriptor warning is said.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { descriptorAlarm } from '../../src/telemetry/descriptor-watch.js';
import { endpointOf, procAddress } from '../../src/telemetry/open-sockets.js';

describe('procAddress', () => {
  it('reads IPv4 in the kernel byte order', () => {
    assert.equal(procAddress('0100007F'), '127.0.0.1');
    assert.equal(procAddress('0202A8C0'), '192.168.2.2');
  });
  it('reads IPv6, and IPv4-mapped IPv6 as IPv4', () => {
    assert.equal(procAddress('00000000000000000000000001000000'), '::1');
    assert.equal(procAddress('0000000000000000FFFF00000100007F'), '127.0.0.1');
    assert.equal(procAddress('B80D0120000000000000000001000000'), '2001:db8::1');
  });
});

describe('endpointOf', () => {
  it('takes the port, or the scheme default', () => {
    assert.deepEqual(endpointOf(new URL('http://127.0.0.1:8080/mcp')), { host: '127.0.0.1', port: 8080 });
    assert.deepEqual(endpointOf(new URL('https://example.com/mcp')), { host: 'example.com', port: 443 });
    assert.deepEqual(endpointOf(new URL('ws://[::1]/mcp')), { host: '::1', port: 80 });
    assert.deepEqual(endpointOf(new URL('wss://example.com/')), { host: 'example.com', port: 443 });
  });
});

describe('descriptorAlarm', () => {
  it('warns at 80 % of the limit, once, and clears under 70 %', () => {
    assert.equal(descriptorAlarm(79, 100, false), undefined);
    assert.equal(descriptorAlarm(80, 100, false), 'warn');
    assert.equal(descriptorAlarm(95, 100, true), undefined, 'said once');
    assert.equal(descriptorAlarm(75, 100, true), undefined, 'between the two: nothing new');
    assert.equal(descriptorAlarm(69, 100, true), 'clear');
  });
  it('says nothing without a finite limit', () => {
    assert.equal(descriptorAlarm(1e9, Number.POSITIVE_INFINITY, false), undefined);
    assert.equal(descriptorAlarm(5, 0, false), undefined);
  });
});
