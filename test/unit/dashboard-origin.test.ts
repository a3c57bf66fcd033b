// Which WebSocket upgrades may open the live view (front/dashboard.ts): the page's own origin only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dashboardSocketAllowed } from '../../src/front/dashboard.js';

describe("the dashboard socket's origin check", () => {
  it("accepts the origin the page is served from, and a request with no Origin (not a browser's)", () => {
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'http://127.0.0.1:8080'), true);
    assert.equal(dashboardSocketAllowed('http', 'localhost:8080', 'http://localhost:8080'), true);
    assert.equal(dashboardSocketAllowed('https', '[::1]:8443', 'https://[::1]:8443'), true);
    assert.equal(dashboardSocketAllowed('http', 'localhost', 'http://localhost:80'), true);
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', undefined), true);
  });

  it('refuses another loopback port, another loopback name, another scheme, another site, an opaque origin', () => {
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'http://127.0.0.1:3000'), false);
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'http://localhost:8080'), false);
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'https://127.0.0.1:8080'), false);
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'http://evil.example'), false);
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'null'), false);
    assert.equal(dashboardSocketAllowed('http', '127.0.0.1:8080', 'not a url'), false);
  });

  it('refuses a Host that is not loopback (DNS rebinding), whatever the Origin', () => {
    assert.equal(dashboardSocketAllowed('http', 'evil.example:8080', 'http://evil.example:8080'), false);
    assert.equal(dashboardSocketAllowed('http', undefined, undefined), false);
  });
});
