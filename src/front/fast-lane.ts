// The fast lane of a legacy route: a plain tools/call (recognized by fast-call.ts) is run through
// the bridge and answered here, without building the official front's per-request server, web
// Request and Response. Everything the official front checks before its handler is done or known
// to pass for such a request (fast-call.ts), and every outcome is encoded by the official front's
// rules (fast-result.ts), so a request this lane takes is answered here and nowhere else. Every
// other request goes to the official front. `--fast-lane off` turns the lane off;
// test/e2e/fast-lane.test.ts checks both paths answer alike.
import type { Request, Response } from 'express';
import { declaresTasks } from '../bridge/tasks/task-wire.js';
import type { JsonObject } from '../protocol/json.js';
import { frontRequestOf } from '../telemetry/front-request.js';
import { principalOfRequest } from './auth-gate.js';
import { EnvelopeClassifier, recognizeToolCall, type FastRequestHead } from './fast-call.js';
import { type CallOutcome, encodeToolCallAnswer } from './fast-result.js';
import { type FrontDeps, frontCapabilities, runInteractive } from './server-factory.js';
import { encodeError } from '../protocol/encode-error.js';

const STANDARD_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;
const NO_NOTIFICATIONS = async () => {};

export class FastLane {
  /** What the SDK's classifier said of the envelopes this lane has seen (clients repeat theirs). */
  private readonly envelopes = new EnvelopeClassifier();

  constructor(private readonly deps: FrontDeps) {}

  /** Serves `body` if it is a request this lane takes; false leaves it, untouched, to the caller. */
  async serve(req: Request, res: Response, body: unknown): Promise<boolean> {
    const upstream = this.deps.upstream;
    const call = recognizeToolCall(headOf(req), body, (tool) => upstream.toolSchemas.get(tool) as JsonObject | undefined, this.envelopes);
    // A call that may become a task goes to the official front, whose handlers run the tasks extension.
    if (call === undefined || declaresTasks(call.capabilities)) return false;
    // A server that cannot be described (or has no tools) gets the official front's own answer.
    const info = await upstream.describe().catch(() => undefined);
    if (info === undefined || !('tools' in frontCapabilities(info))) return false;
    const record = frontRequestOf(req);
    const abort = new AbortController();
    const onClose = () => abort.abort();
    res.once('close', onClose);
    let outcome: CallOutcome;
    try {
      const result = await runInteractive(
        'tools/call',
        call.params,
        {
          capabilities: call.capabilities,
          principal: principalOfRequest(req),
          requestState: call.requestState,
          inputResponses: call.inputResponses,
          droppedInputKeys: call.droppedInputKeys,
          notify: NO_NOTIFICATIONS,
          signal: abort.signal,
          record,
        },
        this.deps,
      );
      outcome = { ok: true, result };
    } catch (error) {
      outcome = { ok: false, error: encodeError(error, this.deps.log) };
    }
    res.off('close', onClose);
    const answer = encodeToolCallAnswer(call.id, outcome, info.serverInfo as unknown as JsonObject, call.capabilities as JsonObject);
    if (record) {
      record.fastLane = true;
      if (answer.code !== undefined) record.error(answer.code);
    }
    if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer.body) }).end(answer.body);
    return true;
  }
}

function headOf(req: Request): FastRequestHead {
  const h = req.headers;
  return {
    httpMethod: req.method,
    contentType: h['content-type'],
    protocolVersion: single(h['mcp-protocol-version']),
    mcpMethod: single(h['mcp-method']),
    mcpName: single(h['mcp-name']),
    repeatedHeader: repeatsStandardHeader(req.rawHeaders),
  };
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? undefined : v;
}

/** Whether one of the standard headers came more than once (node joins repeats of these with ", "). */
function repeatsStandardHeader(raw: string[]): boolean {
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length < 8 || name.length > 20) continue;
    const at = STANDARD_HEADERS.indexOf(name.toLowerCase() as (typeof STANDARD_HEADERS)[number]);
    if (at === -1) continue;
    if (seen & (1 << at)) return true;
    seen |= 1 << at;
  }
  return false;
}
