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
