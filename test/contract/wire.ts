// What crossed the client's transport, both ways, before the official client interpreted it: the
// contract checks progress, logs and result shapes there, the same way on every front.

export interface Message {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface Wire {
  sent: Message[];
  received: Message[];
}

interface Tappable {
  onmessage?: (message: never, ...rest: never[]) => void;
  send(message: never, ...rest: never[]): Promise<void>;
}

/** Records every message of a connected transport (call after `client.connect`, which sets `onmessage`). */
export function tap(transport: Tappable): Wire {
  const wire: Wire = { sent: [], received: [] };
  const onmessage = transport.onmessage;
  if (!onmessage) throw new Error('tap a transport after the client connected it');
  transport.onmessage = (message, ...rest) => {
    wire.received.push(message as Message);
    onmessage.call(transport, message, ...rest);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, ...rest) => {
    wire.sent.push(message as Message);
    return send(message, ...rest);
  };
  return wire;
}

/**
 * Runs one request through the client and returns it as sent, with what came back for it in order:
 * the notifications carrying its progress token or sent while it ran, and its final response.
 */
export async function exchange(wire: Wire, method: string, act: () => Promise<unknown>): Promise<{ request: Message; replies: Message[]; response: Message }> {
  const [sent, received] = [wire.sent.length, wire.received.length];
  await act();
  const requests = wire.sent.slice(sent).filter((m) => m.method === method);
  if (requests.length !== 1) throw new Error(`expected one ${method} on the wire, saw ${JSON.stringify(wire.sent.slice(sent))}`);
  const request = requests[0]!;
  const replies = wire.received.slice(received);
  const response = replies.find((m) => m.id === request.id && m.method === undefined);
  if (!response) throw new Error(`no response to ${method} on the wire: ${JSON.stringify(replies)}`);
  return { request, replies: replies.slice(0, replies.indexOf(response) + 1), response };
}
