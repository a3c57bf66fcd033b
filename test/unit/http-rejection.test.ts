import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeHttpRejection, QUOTED_BODY_CHARS } from '../../src/upstream/transport/http-rejection.js';

const PAGE = '<!DOCTYPE html>\n<html lang="en">\n<head><title>Error</title></head>\n<body><pre>Cannot POST /</pre></body>\n</html>\n';
const rejection = (url: string, status: number, body = '', contentType?: string, inSession = false) =>
  describeHttpRejection({ url: new URL(url), status, statusMessage: status === 404 ? 'Not Found' : undefined, contentType, body, inSession });

describe('describeHttpRejection', () => {
  it('names the status and the URL, asks whether it is the MCP endpoint, and never repeats an HTML page', () => {
    const m = rejection('http://127.0.0.1:3000/', 404, PAGE, 'text/html; charset=utf-8');
    assert.match(m, /^HTTP 404 Not Found from POST http:\/\/127\.0\.0\.1:3000\/ \(an HTML page\): is http:\/\/127\.0\.0\.1:3000\/ the MCP endpoint\?/);
    assert.match(m, /try http:\/\/127\.0\.0\.1:3000\/mcp/);
    assert.doesNotMatch(m, /<|Cannot POST/);
  });

  it('points a URL ending in /sse to the sse transport of the configuration file', () => {
    const m = rejection('http://h:8000/sse', 404, '{"error":"nope"}', 'application/json');
    assert.match(m, /HTTP 404 Not Found from POST http:\/\/h:8000\/sse: is http:\/\/h:8000\/sse the MCP endpoint\?/);
    assert.match(m, /`sse: \{ url: "http:\/\/h:8000\/sse" \}` in a --config file/);
    assert.doesNotMatch(m, /nope/);
  });

  it('takes an HTML page as a wrong URL whatever its status, and a 405 before any session', () => {
    assert.match(rejection('http://h/app', 200, PAGE), /^HTTP 200 from POST http:\/\/h\/app \(an HTML page\): is .*most use \/mcp: http:\/\/h\/mcp/);
    assert.match(
      rejection('http://h/mcp', 405, 'Method Not Allowed', 'text/plain'),
      /^HTTP 405 from POST http:\/\/h\/mcp: is http:\/\/h\/mcp the MCP endpoint\?/,
    );
  });

  it('quotes one short line of any other answer, and a 404 in a session as the session gone', () => {
    const m = rejection('http://h/mcp', 404, '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"}}', 'application/json', true);
    assert.equal(m, 'HTTP 404 Not Found from POST http://h/mcp: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"}}');
    const long = rejection('http://h/mcp', 500, `boom\n\u001b[31m${'x'.repeat(1000)}`);
    assert.ok(long.startsWith('HTTP 500 from POST http://h/mcp: boom [31mx'), long);
    assert.ok(long.length < QUOTED_BODY_CHARS + 60, long);
    assert.ok(!long.includes('\n') && !long.includes('\u001b'), long);
    assert.equal(rejection('http://h/mcp', 503), 'HTTP 503 from POST http://h/mcp');
  });
});
