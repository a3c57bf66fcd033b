import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopback } from '../../src/config/http-front.js';

describe('isLoopback', () => {
  it('takes all of 127.0.0.0/8, ::1 in any spelling, and localhost', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.2', 'localhost'])
      assert.ok(isLoopback(host), host);
  });

  it('refuses every other address and name', () => {
    for (const host of ['0.0.0.0', '::', '128.0.0.1', '10.0.0.1', '::ffff:10.0.0.1', '::2', 'example.com', '127.0.0.1.example.com', 'localhost.evil', ''])
      assert.ok(!isLoopback(host), host);
  });
});
