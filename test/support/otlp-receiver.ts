// An in-process OTLP/HTTP trace receiver for tests: a node:http server on a free 127.0.0.1 port
// that accepts OTLP JSON exports (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) at POST /v1/traces and
// keeps the spans, flattened, with hex ids and plain attribute values.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 2 SERVER, 3 CLIENT. */
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, unknown> }>;
  status: { code?: number; message?: string };
  service: unknown;
}

export const SPAN_KIND = { SERVER: 2, CLIENT: 3 } as const;

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttributes = Array<{ key: string; value: OtlpValue }> | undefined;

function attributes(list: OtlpAttributes): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? [])
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue));
  return out;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(req.headers['content-type'] ?? '').includes('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const data = JSON.parse(body) as {
        resourceSpans: Array<{ resource: { attributes: OtlpAttributes }; scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
      };
      for (const rs of data.resourceSpans) {
        const service = attributes(rs.resource.attributes)['service.name'];
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans) {
            spans.push({
              traceId: String(s['traceId']),
              spanId: String(s['spanId']),
              parentSpanId: s['parentSpanId'] ? String(s['parentSpanId']) : undefined,
              name: String(s['name']),
              kind: Number(s['kind']),
              attributes: attributes(s['attributes'] as OtlpAttributes),
              links: ((s['links'] as Array<Record<string, unknown>> | undefined) ?? []).map((l) => ({
                traceId: String(l['traceId']),
                spanId: String(l['spanId']),
                attributes: attributes(l['attributes'] as OtlpAttributes),
              })),
              status: (s['status'] as ReceivedSpan['status']) ?? {},
              service,
            });
          }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
