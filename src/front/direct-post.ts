// `POST /mcp`, the path every request of a 2026-07-28 client takes, without express's router: the
// same front-door middleware in the same order, then the same handler. For each request the router
// matches every layer's path and runs a chain of closures per layer; for this one exact path the
// chain is known when the listener starts. Everything else (other methods and paths, `/mcp/`,
// `/mcp?x`, the named routes) goes through express unchanged. Request and response first get what
// express's own app.handle gives them (its prototypes, the two back references, res.locals) and
// what its router sets (originalUrl, baseUrl, params), so the middleware and the handler see the
// objects they see behind express.
import type { RequestListener } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';

export type ErrorAnswer = (err: unknown, req: Request, res: Response) => void;

export function directPost(
  app: Express,
  path: string,
  middleware: readonly RequestHandler[],
  handler: (req: Request, res: Response) => Promise<void>,
  onError: ErrorAnswer,
): RequestListener {
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== path) return void app(req, res);
    const request = req as Request;
    const response = res as Response;
    request.res = response;
    response.req = request;
    Object.setPrototypeOf(request, app.request);
    Object.setPrototypeOf(response, app.response);
    response.locals ??= Object.create(null);
    request.originalUrl = path;
    request.baseUrl = '';
    request.params = {};
    let at = 0;
    const next: NextFunction = (err?: unknown) => {
      // express reads next('route') and next('router') as "skip"; no front-door middleware says either.
      if (err !== undefined && err !== null) return onError(err, request, response);
      const step = middleware[at++];
      if (step === undefined) return void handler(request, response).catch((e: unknown) => onError(e, request, response));
      try {
        const r: unknown = step(request, response, next);
        if (r instanceof Promise) r.catch(next);
      } catch (e) {
        next(e);
      }
    };
    next();
  };
}
