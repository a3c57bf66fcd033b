// Encodes a completed tools/call result for the fast lane, as the official front would: the
// 2026-07-28 `resultType` and the server's identity under `_meta`, in a JSON-RPC response. Only
// results whose shape is known to pass the SDK's result schema unchanged are encoded here (text
// content, isError, an object structuredContent); for anything else this answers undefined and
// the fast lane hands the result to the official front, which encodes it. Pure.
import { frontCovers } from '../protocol/capabilities.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const RESULT_KEYS = new Set(['content', 'isError', 'structuredContent', 'resultType']);

/** The JSON-RPC response body for `result`, or undefined when the official front must encode it. */
export function encodeToolResult(id: string | number, result: JsonObject, serverInfo: JsonObject): string | undefined {
  if (!isPlainTextResult(result)) return undefined;
  const { resultType: _complete, ...rest } = result;
  return JSON.stringify({ result: { ...rest, resultType: 'complete', _meta: { [SERVER_INFO]: serverInfo } }, jsonrpc: '2.0', id });
}

/**
 * The JSON-RPC response body for an input_required round, or undefined when the official front must
 * answer it: it checks, as the SDK does, that every embedded request is one the 2026-07-28 revision
 * defines and that `declared` (the request's client capabilities) covers what it needs.
 */
export function encodeInputRequired(id: string | number, result: JsonObject, serverInfo: JsonObject, declared: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(result)) if (!INPUT_REQUIRED_KEYS.has(key)) return undefined;
  const { inputRequests, requestState } = result;
  if (result['resultType'] !== 'input_required' || typeof requestState !== 'string' || !isJsonObject(inputRequests)) return undefined;
  for (const entry of Object.values(inputRequests)) if (!isJsonObject(entry) || !frontCovers(entry, declared)) return undefined;
  return JSON.stringify({ result: { ...result, _meta: { [SERVER_INFO]: serverInfo } }, jsonrpc: '2.0', id });
}

const INPUT_REQUIRED_KEYS = new Set(['resultType', 'inputRequests', 'requestState']);

function isPlainTextResult(result: JsonObject): boolean {
  for (const key of Object.keys(result)) if (!RESULT_KEYS.has(key)) return false;
  const { content, isError, structuredContent, resultType } = result;
  if (resultType !== undefined && resultType !== 'complete') return false;
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  if (structuredContent !== undefined && (!isJsonObject(structuredContent) || Object.hasOwn(structuredContent, '__proto__'))) return false;
  return Array.isArray(content) && content.every(isTextBlock);
}

function isTextBlock(block: unknown): boolean {
  if (!isJsonObject(block)) return false;
  const keys = Object.keys(block);
  return keys.length === 2 && block['type'] === 'text' && typeof block['text'] === 'string';
}
