// Recognizes the `tools/call` requests the fast lane may serve without the official front's
// per-request machinery: those on which every rung of the SDK's ladder is known to pass. The
// recognition is deliberately narrow. It uses the SDK's own exported classifier (JSON-RPC shape,
// envelope schema, header/body version and method agreement) and adds, conservatively, the rungs
// the SDK checks later (standard headers present, Mcp-Name, Mcp-Param-*, params shape). Anything
// outside that narrow shape is not an error here: it is left to the official front, which answers
// it exactly as before. Pure: no I/O.
import { classifyInboundRequest, isJSONRPCRequest, isJsonContentType } from '@modelcontextprotocol/server';
import { declaredCapabilities, type FrontCapabilities } from '../protocol/capabilities.js';
import { partitionInputResponses } from '../protocol/answers.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

const REVISION = '2026-07-28';
const ENVELOPE = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/clientCapabilities'];
const PARAM_KEYS = new Set(['name', 'arguments', '_meta', 'inputResponses', 'requestState']);
/** An Mcp-Name in the SDK's Base64 form (`=?base64?…?=`) is decoded by the SDK; the fast lane leaves it to it. */
const SENTINEL = '=?';

/** What the listener knows of one HTTP request. Header values as node gives them (one value each, or absent). */
export interface FastRequestHead {
  httpMethod: string;
  contentType: string | undefined;
  protocolVersion: string | undefined;
  mcpMethod: string | undefined;
  mcpName: string | undefined;
  /** The request carried one of the three standard headers more than once. */
  repeatedHeader: boolean;
}

/** A recognized tools/call, shaped as the official front hands it to its handler. */
export interface FastToolCall {
  id: string | number;
  name: string;
  /** The params without the envelope, inputResponses and requestState (what the SDK lifts off). */
  params: JsonObject;
  capabilities: FrontCapabilities;
  requestState: string | undefined;
  /** The accepted input responses (undefined when the request carried none), and the keys dropped as malformed. */
  inputResponses: Record<string, JsonObject> | undefined;
  droppedInputKeys: string[];
}

/**
 * The tools/call in `body`, when the fast lane may serve it; undefined sends it to the official front.
 * `inputSchemaOf` gives the called tool's legacy input schema when known (for `Mcp-Param-*`);
 * `envelopes` keeps what the SDK's classifier said of envelopes seen before: one per fast lane, so
 * that a client's repeated envelope is classified once.
 */
export function recognizeToolCall(
  head: FastRequestHead,
  body: unknown,
  inputSchemaOf: (tool: string) => JsonObject | undefined,
  envelopes: EnvelopeClassifier,
): FastToolCall | undefined {
  if (head.httpMethod !== 'POST' || head.repeatedHeader || !isJsonContentType(head.contentType ?? null)) return undefined;
  if (!isJSONRPCRequest(body) || body.method !== 'tools/call') return undefined;
  if (head.protocolVersion !== REVISION || head.mcpMethod !== 'tools/call' || head.mcpName === undefined) return undefined;
  const params = body.params as Record<string, unknown> | undefined;
  // Without an envelope object there is no 2026-07-28 claim for the classifier to accept.
  if (!isJsonObject(params) || !isJsonObject(params['_meta']) || !envelopes.modern(head, params)) return undefined;
  if (!Object.keys(params).every((k) => PARAM_KEYS.has(k))) return undefined;
  const name = params['name'];
  if (typeof name !== 'string' || head.mcpName.startsWith(SENTINEL) || head.mcpName !== name) return undefined;
  const args = params['arguments'];
  if (args !== undefined && (!isJsonObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  if (declaresParamHeaders(inputSchemaOf(name))) return undefined;
  const meta = params['_meta'];
  // Only the envelope: a progressToken or log level would make the answer a stream; other keys
  // go upstream (trace context, vendor keys) and stay with the official front for now.
  if (!isJsonObject(meta) || !Object.keys(meta).every((k) => ENVELOPE.includes(k))) return undefined;
  const requestState = params['requestState'];
  if (requestState !== undefined && typeof requestState !== 'string') return undefined;
  const responses = params['inputResponses'];
  const partitioned = responses === undefined ? undefined : partitionInputResponses(responses);
  return {
    id: body.id,
    name,
    params: args === undefined ? { name } : { name, arguments: args as JsonObject },
    capabilities: declaredCapabilities(params),
    requestState,
    inputResponses: partitioned?.accepted,
    droppedInputKeys: partitioned?.dropped ?? [],
  };
}

const MAX_CLASSIFIED = 1024;
/** A larger envelope is classified every time: the memory kept stays under ~4 MiB. */
const MAX_KEY_LENGTH = 4096;

/**
 * Whether the SDK's classifier routes a tools/call to the 2026-07-28 era without a refusal. For a
 * JSON-RPC request of a method other than `initialize`, its answer depends only on the
 * MCP-Protocol-Version and Mcp-Method headers and `params._meta` (the envelope, validated with the
 * SDK's schema). The headers are fixed by the time it is asked (this revision, tools/call), so the
 * answer is kept per distinct envelope: clients send the same envelope on every request. One per
 * fast lane (a proxy instance's route); emptied when full.
 */
export class EnvelopeClassifier {
  private readonly known = new Map<string, boolean>();

  /** How many envelopes it remembers. */
  get size(): number {
    return this.known.size;
  }

  modern(head: FastRequestHead, params: Record<string, unknown>): boolean {
    const key = JSON.stringify(params['_meta']);
    let modern = this.known.get(key);
    if (modern === undefined) {
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: head.protocolVersion,
        mcpMethodHeader: head.mcpMethod,
        body: { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { _meta: params['_meta'] } },
      });
      modern = route.kind === 'modern' && route.messageKind === 'request' && route.classification.revision === REVISION;
      if (key.length <= MAX_KEY_LENGTH) {
        if (this.known.size >= MAX_CLASSIFIED) this.known.clear();
        this.known.set(key, modern);
      }
    }
    return modern;
  }
}

const paramHeaders = new WeakMap<JsonObject, boolean>();

/**
 * Whether a tool's input schema declares `x-mcp-header` anywhere (the SDK then checks
 * `Mcp-Param-*` headers). Read once per schema object: the upstream keeps one per tool.
 */
export function declaresParamHeaders(schema: JsonObject | undefined): boolean {
  if (schema === undefined) return false;
  let declares = paramHeaders.get(schema);
  if (declares === undefined) {
    declares = JSON.stringify(schema).includes('"x-mcp-header"');
    paramHeaders.set(schema, declares);
  }
  return declares;
}
