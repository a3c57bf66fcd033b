// Starts the OpenTelemetry trace SDK when the environment asks for it (otel-env.ts): a Node tracer
// provider with a batching OTLP/HTTP exporter and the W3C propagators, but no async context
// manager: the proxy hands every span's parent down explicitly (front-request.ts), and the SDK's
// manager (AsyncLocalStorage) would run a hook for every promise the process creates.
// The exporter, batching, sampler and resource read their own OTEL_* variables; the proxy only
// names itself (service.name mrtr-proxy unless OTEL_SERVICE_NAME says otherwise). The SDK is
// loaded only when tracing is on: it costs start-up time a proxy without tracing need not pay.
import type { TracingPlan } from './otel-env.js';

export interface Tracing {
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export async function startTracing(plan: TracingPlan, version: string): Promise<Tracing | undefined> {
  if (plan.kind === 'off') return undefined;
  const [{ BatchSpanProcessor, NodeTracerProvider }, { defaultResource, detectResources, envDetector, resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
  ]);
  const exporter =
    plan.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter()
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'mrtr-proxy', 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register({ contextManager: null });
  return { shutdown: () => provider.shutdown() };
}
