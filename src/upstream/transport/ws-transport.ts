// Legacy MCP over WebSocket (subprotocol `mcp`, one JSON-RPC message per text frame). The v1 SDK's
// WebSocket transport needs a global WebSocket (Node 20 has none) and cannot send headers, so this
// small transport uses `ws`, which can; it is loaded when a WebSocket upstream is first used.
import type WebSocket from 'ws';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { classifyNetworkError } from './stream-gone.js';

export class WsClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private socket: WebSocket | undefined;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    if (this.socket) throw new Error('WsClientTransport already started');
    const { default: WebSocketClient } = await import('ws');
    return new Promise((resolve, reject) => {
      const socket = new WebSocketClient(this.url, 'mcp', { headers: this.headers });
      this.socket = socket;
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.on('error', (err) => this.onerror?.(classifyNetworkError(err)));
      socket.on('close', () => this.onclose?.());
      socket.on('message', (data, isBinary) => {
        if (isBinary) return this.onerror?.(new Error('binary WebSocket frame from the legacy server'));
        try {
          this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(data.toString())));
        } catch (err) {
          this.onerror?.(err as Error);
        }
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== socket.OPEN) return Promise.reject(new Error('WebSocket is not open'));
    return new Promise((resolve, reject) => socket.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    this.socket?.close();
  }
}
