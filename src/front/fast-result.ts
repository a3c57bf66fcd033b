// Encodes a completed tools/call result for the fast lane, as the official front would: the
// 2026-07-28 `resultType` and the server's identity under `_meta`, in a JSON-RPC response. Only
// results whose shape is known to pass the SDK's result schema unchanged are encoded here (text
// content, isError, an object structuredContent); for anything else this answers undefined and
// the fast lane hands the result to the official front, which encodes it. Pure.
import type { JsonObject } from '../protocol/json.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const RESULT_KEYS = new Set(['content', 'isError', 'structuredContent', 'resultType']);

/** The JSON-RPC response body for `result`, or undefined when the official front must encode it. */
export function encodeToolResult(id: string | number, result: JsonObject, serverInfo: JsonObject): string | undefined {
  if (!isPlainTextResult(result)) return undefined;
  const { resultType: _complete, ...rest } = result;
  return JSON.stringify({ result: { ...rest, resultType: 'complete', _meta: { [SERVER_INFO]: serverInfo } }, jsonrpc: '2.0', id });
}

function isPlainTextResult(result: JsonObject): boolean {
  for (const key of Object.keys(result)) if (!RESULT_KEYS.has(key)) return false;
  const { content, isError, structuredContent, resultType } = result;
  if (resultType !== undefined && resultType !== 'complete') return false;
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  if (structuredContent !== undefined && (!isPlainObject(structuredContent) || Object.hasOwn(structuredContent, '__proto__'))) return false;
  return Array.isArray(content) && content.every(isTextBlock);
}

function isTextBlock(block: unknown): boolean {
  if (!isPlainObject(block)) return false;
  const keys = Object.keys(block);
  return keys.length === 2 && block['type'] === 'text' && typeof block['text'] === 'string';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
