// Starts the OpenTelemetry trace SDK when the environment asks for it (otel-env.ts): a Node tracer
// provider with a batching OTLP/HTTP exporter, the W3C propagators and the async context manager.
// The exporter, batching, sampler and resource read their own OTEL_* variables; the proxy only
// names itself (service.name mrtr-proxy unless OTEL_SERVICE_NAME says otherwise).
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TracingPlan } from './otel-env.js';

export interface Tracing {
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export function startTracing(plan: TracingPlan, version: string): Tracing | undefined {
  if (plan.kind === 'off') return undefined;
  const exporter = plan.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'mrtr-proxy', 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
