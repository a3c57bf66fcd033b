// The methods that matter to the bridge. Only these three may answer `input_required`
// (S26/basic/patterns/mrtr.mdx "Supported Requests"); every other method is forwarded as it is.

export const INTERACTIVE_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;
export type InteractiveMethod = (typeof INTERACTIVE_METHODS)[number];

export function isInteractiveMethod(method: unknown): method is InteractiveMethod {
  return typeof method === 'string' && (INTERACTIVE_METHODS as readonly string[]).includes(method);
}

/** The params field that names an interactive request's target (tool, prompt or resource). */
export const TARGET_FIELD: Record<InteractiveMethod, 'name' | 'uri'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
