// front/direct-post.ts on a real node:http server: POST /mcp runs the same middleware in the same
// order and the same handler as express would, with express's request and response helpers; every
// other request still goes through express; a middleware's or the handler's failure reaches the
// error answer, not the client as a hang.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { directPost, type ErrorAnswer } from '../../src/front/direct-post.js';

interface Seen {
  steps: string[];
  via: string[];
}

async function withListener(
  middleware: RequestHandler[],
  handler: (req: Request, res: Response) => Promise<void>,
  run: (url: string, seen: Seen) => Promise<void>,
): Promise<void> {
  const seen: Seen = { steps: [], via: [] };
  const app = express();
  app.use((req, _res, next) => {
    seen.via.push(`express ${req.method} ${req.url}`);
    next();
  });
  for (const m of middleware) app.use(m);
  app.all('/mcp', (req, res) => void handler(req, res));
  app.use((_req, res) => void res.status(404).json({ at: 'express 404' }));
  const onError: ErrorAnswer = (err, _req, res) => void res.status(500).json({ error: (err as Error).message });
  const server = createServer(directPost(app, '/mcp', middleware, handler, onError));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

function send(url: string, method: string, path: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

const step =
  (name: string, seen: () => Seen): RequestHandler =>
  (req, res, next) => {
    seen().steps.push(`${name} ${req.path} ${req.header('content-type')}`);
    res.set(`x-${name}`, '1');
    next();
  };

describe('directPost', () => {
  it('serves POST /mcp through the same middleware, in order, and the handler, with express helpers', async () => {
    let seen: Seen | undefined;
    const mw = [step('a', () => seen!), step('b', () => seen!)];
    await withListener(
      mw,
      async (req, res) => void res.status(201).json({ url: req.originalUrl, base: req.baseUrl, params: req.params, locals: typeof res.locals }),
      async (url, s) => {
        seen = s;
        const r = await send(url, 'POST', '/mcp');
        assert.equal(r.status, 201);
        assert.deepEqual(JSON.parse(r.body), { url: '/mcp', base: '', params: {}, locals: 'object' });
        assert.equal(r.headers['x-a'], '1');
        assert.equal(r.headers['x-b'], '1');
        assert.deepEqual(s.steps, ['a /mcp application/json', 'b /mcp application/json']);
        // Express's own first middleware never saw it.
        assert.deepEqual(s.via, []);
      },
    );
  });

  it('leaves every other request to express', async () => {
    let seen: Seen | undefined;
    await withListener(
      [step('a', () => seen!)],
      async (_req, res) => void res.json({ at: 'handler' }),
      async (url, s) => {
        seen = s;
        for (const [method, path] of [
          ['GET', '/mcp'],
          ['POST', '/mcp/'],
          ['POST', '/mcp?x=1'],
          ['POST', '/other'],
        ] as const) {
          await send(url, method, path).catch((e: Error) => assert.fail(`${method} ${path}: ${e.message}`));
        }
        assert.deepEqual(s.via, ['express GET /mcp', 'express POST /mcp/', 'express POST /mcp?x=1', 'express POST /other']);
      },
    );
  });

  it('stops where a middleware answers', async () => {
    const refuse: RequestHandler = (_req, res) => void res.status(403).json({ refused: true });
    let handled = false;
    await withListener(
      [refuse],
      async () => {
        handled = true;
      },
      async (url) => {
        const r = await send(url, 'POST', '/mcp');
        assert.equal(r.status, 403);
        assert.equal(handled, false);
      },
    );
  });

  it('answers through the error answer when a middleware fails, throws, or the handler rejects', async () => {
    const cases: Array<[RequestHandler[], (req: Request, res: Response) => Promise<void>, string]> = [
      [[(_req, _res, next) => next(new Error('passed on'))], async () => {}, 'passed on'],
      [
        [
          () => {
            throw new Error('thrown');
          },
        ],
        async () => {},
        'thrown',
      ],
      [[async () => Promise.reject(new Error('rejected'))], async () => {}, 'rejected'],
      [[], async () => Promise.reject(new Error('handler failed')), 'handler failed'],
    ];
    for (const [mw, handler, message] of cases) {
      await withListener(mw, handler, async (url) => {
        const r = await send(url, 'POST', '/mcp');
        assert.equal(r.status, 500);
        assert.deepEqual(JSON.parse(r.body), { error: message });
      });
    }
  });
});
