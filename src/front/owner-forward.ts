// Requests that belong to another instance: retries of the calls it holds (their requestState names
// it), and tasks/update and tasks/cancel of the tasks it runs (their taskId names it; tasks/get too
// when there is no task store to read them from). This instance forwards the HTTP request as it came
// (body, MCP headers, the client's authorization) to the owner, authenticated with a key derived
// from the state key, and relays the owner's answer as it streams (progress and logs included).
// - A retry whose owner cannot be reached, or restarted and so no longer holds the call, gets
//   `-32602` `owner_gone` within about 2 s.
// - A task request whose owner cannot be reached, or accepts the connection but sends no answer
//   within OWNER_TASK_ANSWER_MS (paused, frozen, overloaded), is served here: the task store says
//   whether the task ended or its owner is gone (bridge/tasks/task-table.ts), and a live owner out
//   of reach is `owner_unreachable`. A retry's answer may rightly take as long as the round it
//   resumes (--call-timeout), so it is given that long (retryAnswerMs) before its owner counts as gone.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Request, Response } from 'express';
import { proxyErrorBody } from '../protocol/encode-error.js';
import { errorBody, JSONRPC, ProxyError } from '../protocol/errors.js';
import { isInteractiveMethod } from '../protocol/methods.js';
import { FORWARD_HEADER, signForward, verifyForward } from '../state/forward-auth.js';
import type { Sealer, StateClaims } from '../state/seal.js';
import type { Logger } from '../telemetry/logger.js';

/** How long reaching the owner may take before it counts as gone. */
export const OWNER_CONNECT_MS = 2000;
/**
 * How long the owner may take to start answering a forwarded task request. Its tasks/update and
 * tasks/cancel only deliver and ack (a translated cancel asks the legacy server once), so an owner
 * silent this long is stopped or frozen, and the client is better told to retry.
 */
export const OWNER_TASK_ANSWER_MS = 5000;
/** Request headers a forward carries; hop-by-hop and cookie headers stay behind. */
const PASS = /^(content-type|accept|authorization|mcp-[a-z0-9-]+|traceparent|tracestate|baggage)$/;
const RELAY = ['content-type', 'cache-control', 'x-accel-buffering'];

export interface OwnerForwarding {
  /** This instance's id for the upstream (the `i` of the states it seals). */
  instance: string;
  sealer: Sealer;
  /** Forward keys derived from the state keys: the first signs, all verify. */
  keys: Buffer[];
  now(): number;
  log: Logger;
  /** Tasks are written to a shared store: tasks/get is answered by any instance, never forwarded. */
  taskStore: boolean;
  /** How long a forwarded retry's answer may take to start once connected (the round's --call-timeout and some); absent: not timed. */
  retryAnswerMs?: (() => number) | undefined;
}

const TASK_METHODS: ReadonlySet<unknown> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

const ownerGone = (why: string) =>
  new ProxyError(
    'interaction_gone',
    'owner_gone',
    `the proxy instance that holds this interaction ${why}; send the request again without requestState and inputResponses`,
  );

/**
 * Whether the request was served here because another instance owns it. A request left to this
 * instance carries the requestState claims opened to decide (`opened`), for the bridge to check
 * rather than open the state again.
 */
export type ForwardDecision = { served: true } | { served: false; opened?: StateClaims };

const SERVED: ForwardDecision = { served: true };
const NOT_SERVED: ForwardDecision = { served: false };

/** Serves the request if another instance owns it. */
export async function forwardIfForeign(f: OwnerForwarding, req: Request, res: Response, raw: Buffer, body: unknown): Promise<ForwardDecision> {
  const msg = body as { id?: unknown; method?: unknown; params?: Record<string, unknown> } | undefined;
  const task = TASK_METHODS.has(msg?.method);
  if (task && msg?.method === 'tasks/get' && f.taskStore) return NOT_SERVED;
  const token = task ? msg?.params?.['taskId'] : msg?.params?.['requestState'];
  if (!(task || isInteractiveMethod(msg?.method)) || typeof token !== 'string') return NOT_SERVED;
  const claims = await f.sealer.inspect(token).catch(() => undefined);
  if (!claims) return NOT_SERVED;
  // Replayed calls and this instance's own are the bridge's to answer, with the state opened here.
  const here: ForwardDecision = task ? NOT_SERVED : { served: false, opened: claims };
  if (claims.k === 'replay' || claims.i === f.instance || (task ? claims.k !== 'task' : claims.k === 'task')) return here;
  const path = req.originalUrl.split('?')[0]!;
  if (req.header(FORWARD_HEADER) !== undefined) {
    if (!verifyForward(f.keys, req.header(FORWARD_HEADER), f.now(), path, raw)) {
      res.status(403).json(errorBody(msg?.id, JSONRPC.INVALID_REQUEST, 'forwarded request failed authentication'));
      return SERVED;
    }
    // Forwarded here as the owner, but this process is not it: the owner restarted. A task is then
    // served here (the task table knows what became of it); a held call is gone.
    if (task) return NOT_SERVED;
    res.status(200).json(proxyErrorBody(msg?.id, ownerGone('has restarted and no longer holds it')));
    return SERVED;
  }
  if (claims.o === undefined) return here;
  f.log.debug(task ? 'forwarding a task request to the instance that runs the task' : 'forwarding a retry to the instance that holds its call', {
    owner: claims.o,
  });
  return (await relay(f, new URL(path, claims.o), req, res, raw, msg?.id, task)) ? SERVED : NOT_SERVED;
}

/** True once the owner's answer (or the error for a retry) went to the client; false: a task request the owner never got. */
function relay(f: OwnerForwarding, target: URL, req: Request, res: Response, raw: Buffer, id: unknown, task: boolean): Promise<boolean> {
  const headers: Record<string, string> = { 'content-length': String(raw.length), [FORWARD_HEADER]: signForward(f.keys[0]!, f.now(), target.pathname, raw) };
  for (const [name, value] of Object.entries(req.headers)) if (PASS.test(name) && typeof value === 'string') headers[name] = value;
  return new Promise<boolean>((resolve) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const out = send(target, { method: 'POST', headers });
    const fail = (why: string) => {
      f.log.warn(task ? 'cannot forward a task request to its owner' : 'cannot forward a retry to its owner', { owner: target.origin, error: why });
      if (task && !res.headersSent) return resolve(false);
      if (!res.headersSent) res.status(200).json(proxyErrorBody(id, ownerGone('cannot be reached (it may have stopped)')));
      else res.destroy();
      resolve(true);
    };
    // A task request is timed until the owner's answer starts; a retry until the connection is
    // made, then until its answer starts (the round it resumes may take --call-timeout).
    const limitMs = task ? OWNER_TASK_ANSWER_MS : OWNER_CONNECT_MS;
    let timer = setTimeout(() => out.destroy(new Error(task ? `no answer within ${limitMs} ms` : `no connection within ${limitMs} ms`)), limitMs);
    if (!task)
      out.once('socket', (s) => {
        const connected = () => {
          clearTimeout(timer);
          const answerMs = f.retryAnswerMs?.();
          if (answerMs !== undefined) timer = setTimeout(() => out.destroy(new Error(`no answer within ${answerMs} ms`)), answerMs);
        };
        // A kept-alive socket is connected already and says nothing more.
        if (!s.connecting) connected();
        else s.once('connect', connected);
      });
    out.once('error', (err) => {
      clearTimeout(timer);
      fail(err.message);
    });
    out.once('response', (answer: IncomingMessage) => {
      clearTimeout(timer);
      res.status(answer.statusCode ?? 502);
      for (const h of RELAY) if (answer.headers[h] !== undefined) res.setHeader(h, answer.headers[h]!);
      answer.pipe(res);
      answer.once('end', () => resolve(true));
      answer.once('error', () => resolve(true));
    });
    // The client went away: so does the forwarded request (the owner treats it as cancellation).
    res.once('close', () => {
      if (!res.writableFinished) out.destroy();
      resolve(true);
    });
    out.end(raw);
  });
}
