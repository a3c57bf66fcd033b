// What a legacy server authored when it asked (--audit-questions): the text and schema a migrated
// handler must reproduce. Only the server's own words: never the client's answers, the tool's
// arguments or the messages it asked a model to continue (their roles and content types stay).

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The server-authored part of one legacy request, as the audit keeps it. */
export type AuditedQuestion =
  | { method: 'elicitation/create'; mode: 'form'; message: string; requestedSchema: Obj }
  | { method: 'elicitation/create'; mode: 'url'; message: string; url: string }
  | { method: 'sampling/createMessage'; params: Obj }
  | { method: 'roots/list' }
  | { method: string };

/** Sampling parameters the server chose; `messages` keeps each message's role and content types only. */
const SAMPLING_KEPT = ['systemPrompt', 'maxTokens', 'temperature', 'stopSequences', 'modelPreferences', 'includeContext', 'tools', 'toolChoice', 'metadata'];

function contentTypes(content: unknown): string[] {
  return (Array.isArray(content) ? content : [content]).filter(isObj).map((c) => String(c['type']));
}

/**
 * A URL without its query and fragment: the page the server sends the user to, without the
 * per-call tokens such links usually carry.
 */
function urlWithoutQuery(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '';
  }
}

export function questionOf(method: string, params: Obj | undefined): AuditedQuestion {
  const p = params ?? {};
  if (method === 'elicitation/create') {
    const message = typeof p['message'] === 'string' ? p['message'] : '';
    if (p['mode'] === 'url') return { method, mode: 'url', message, url: urlWithoutQuery(p['url']) };
    return { method, mode: 'form', message, requestedSchema: isObj(p['requestedSchema']) ? p['requestedSchema'] : {} };
  }
  if (method === 'sampling/createMessage') {
    const kept: Obj = {};
    for (const k of SAMPLING_KEPT) if (p[k] !== undefined) kept[k] = p[k];
    const messages = Array.isArray(p['messages']) ? p['messages'].filter(isObj) : [];
    kept['messages'] = messages.map((m) => ({ role: String(m['role']), contentTypes: contentTypes(m['content']) }));
    return { method, params: kept };
  }
  return { method };
}

/** What a legacy result looked like, without its values: what a migrated finish() must return. */
export interface ResultShape {
  /** tools/call: content block types; prompts/get: message `role/type`; resources/read: `text` or `blob` with the MIME type. */
  parts: string[];
  /** tools/call: the structuredContent's top-level keys. */
  structured?: string[];
  isError?: boolean;
}

export function resultShapeOf(method: string, result: Obj): ResultShape {
  if (method === 'prompts/get') {
    const messages = Array.isArray(result['messages']) ? result['messages'].filter(isObj) : [];
    return { parts: messages.map((m) => `${String(m['role'])}/${contentTypes(m['content']).join('+')}`) };
  }
  if (method === 'resources/read') {
    const contents = Array.isArray(result['contents']) ? result['contents'].filter(isObj) : [];
    return { parts: contents.map((c) => `${'blob' in c ? 'blob' : 'text'}${typeof c['mimeType'] === 'string' ? ` ${c['mimeType']}` : ''}`) };
  }
  const structured = isObj(result['structuredContent']) ? Object.keys(result['structuredContent']) : undefined;
  return {
    parts: Array.isArray(result['content']) ? contentTypes(result['content']) : [],
    ...(structured ? { structured } : {}),
    ...(result['isError'] === true ? { isError: true } : {}),
  };
}
