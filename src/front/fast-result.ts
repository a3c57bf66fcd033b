// Encodes every outcome of a tools/call the fast lane ran, as the official v2 front encodes it, so
// the lane answers each request it takes by itself. The result's shape is checked with the SDK's
// exported schema (`specTypeSchemas.CallToolResult`: the same checks, the same parsed value and the
// same issues as its 2026-07-28 codec). The rest of the SDK's steps for a tools/call result are not
// exported, so they are restated here (the capability rule in protocol/capabilities.ts), each
// beside the SDK function it follows: the input_required gate, the deleted-fields, resultType and
// serverInfo stamps, the error code and the HTTP status of an error. test/e2e/fast-lane.test.ts
// sends every kind of outcome through both paths and compares the answers, so a change in the
// SDK's rules fails there. Pure.
import { SERVER_INFO_META_KEY, specTypeSchemas } from '@modelcontextprotocol/server';
import { frontMissing, frontRequirement } from '../protocol/capabilities.js';
import { errorBody, JSONRPC, LEGACY, type WireError } from '../protocol/errors.js';
import { statusForCode } from '../protocol/http-status.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** What the bridge made of a call: its result, or the wire error its failure is answered with. */
export type CallOutcome = { ok: true; result: JsonObject } | { ok: false; error: WireError };

/** One HTTP answer: its status and its JSON-RPC body (always `application/json`), and its error code if it is an error. */
export interface EncodedAnswer {
  status: number;
  body: string;
  code?: number;
}

/** The answer to tools/call request `id` for `outcome`; `declared` is the request's client capabilities. */
export function encodeToolCallAnswer(id: string | number, outcome: CallOutcome, serverInfo: JsonObject, declared: JsonObject): EncodedAnswer {
  if (!outcome.ok) return errorAnswer(id, outcome.error);
  const result = outcome.result;
  if (result['resultType'] === 'input_required') {
    const refusal = inputRequiredRefusal(result, declared);
    return refusal === undefined ? resultAnswer(id, result, serverInfo) : errorAnswer(id, refusal);
  }
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(result);
  if (checked instanceof Promise) throw new Error('the SDK checks CallToolResult asynchronously');
  if (checked.issues !== undefined) {
    return errorAnswer(id, { code: JSONRPC.INVALID_PARAMS, message: `Invalid tools/call result: ${JSON.stringify(checked.issues, null, 2)}` });
  }
  return resultAnswer(id, checked.value as JsonObject, serverInfo);
}

/**
 * The SDK's `Protocol` answering a handler's throw (`encodeErrorCode`: -32002 is -32602 on this
 * revision), with the HTTP status the official front gives it (in-band 200, re-statused as
 * official-front.ts does).
 */
function errorAnswer(id: string | number, error: WireError): EncodedAnswer {
  const code = error.code === LEGACY.RESOURCE_NOT_FOUND ? JSONRPC.INVALID_PARAMS : error.code;
  return { status: statusForCode(code) ?? 200, body: JSON.stringify(errorBody(id, code, error.message, error.data)), code };
}

/** The SDK's `encodeResult` for tools/call: `enforceDeletedFields`, `stampResultType`, `stampServerInfoMeta`. */
function resultAnswer(id: string | number, result: JsonObject, serverInfo: JsonObject): EncodedAnswer {
  let encoded = result;
  const capabilities = encoded['capabilities'];
  if (isJsonObject(capabilities) && 'tasks' in capabilities) {
    const { tasks: _deleted, ...rest } = capabilities;
    encoded = { ...encoded, capabilities: rest };
  }
  // tools/call may carry a resultType other than complete (input_required): it is kept as it is.
  if (encoded['resultType'] === undefined) encoded = { ...encoded, resultType: 'complete' };
  const meta = encoded['_meta'];
  if (meta === undefined) encoded = { ...encoded, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  else if (isJsonObject(meta) && meta[SERVER_INFO_META_KEY] === undefined) encoded = { ...encoded, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
  return { status: 200, body: JSON.stringify({ result: encoded, jsonrpc: '2.0', id }) };
}

/**
 * Why the SDK would not send this input_required round (`_invokeInputRequiredCapableHandler`): it
 * carries neither inputRequests nor requestState, an entry is not an input request this revision
 * defines, or `declared` does not cover one. Undefined when it may go out.
 */
export function inputRequiredRefusal(result: JsonObject, declared: JsonObject): WireError | undefined {
  const inputRequests = result['inputRequests'] as Record<string, unknown> | null | undefined;
  const hasInputRequests = inputRequests != null && Object.keys(inputRequests).length > 0;
  if (!hasInputRequests && typeof result['requestState'] !== 'string') {
    return {
      code: JSONRPC.INTERNAL_ERROR,
      message:
        'Handler for tools/call returned an input-required result with neither inputRequests nor requestState (every InputRequiredResult must include at least one of the two)',
    };
  }
  if (!hasInputRequests) return undefined;
  try {
    for (const [key, entry] of Object.entries(inputRequests)) {
      if (!isJsonObject(entry) || typeof entry['method'] !== 'string') {
        return {
          code: JSONRPC.INTERNAL_ERROR,
          message: `Handler for tools/call returned an invalid input request '${key}': each inputRequests entry must be an embedded elicitation/create, sampling/createMessage, or roots/list request`,
        };
      }
      const method = entry['method'];
      const required = frontRequirement(method, entry['params']);
      if (required === undefined) {
        return {
          code: JSONRPC.INTERNAL_ERROR,
          message: `Handler for tools/call returned an input request '${key}' of kind '${method}', which is not an embedded request the 2026-07-28 revision defines`,
        };
      }
      const missing = frontMissing(required, declared);
      if (missing !== undefined) {
        return {
          code: JSONRPC.MISSING_CLIENT_CAPABILITY,
          message: `Cannot request input '${key}' (${method}): the request's client capabilities do not declare the required capability`,
          data: { requiredCapabilities: missing },
        };
      }
    }
  } catch (error) {
    // The SDK reads `params` members as it finds them: a params of null throws its TypeError there.
    return { code: JSONRPC.INTERNAL_ERROR, message: (error as Error).message };
  }
  return undefined;
}
