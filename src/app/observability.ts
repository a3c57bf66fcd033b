// Metrics, traces and the access log for one running proxy, from its configuration: the registry,
// the HTTP front's hook, the separate metrics listener (--metrics-port), the trace SDK (OTEL_*),
// and the warning before the process runs out of descriptors.
// The SDK is the program's to start: the CLI starts it; a program embedding the library has its
// own, and the proxy's spans go to it through @opentelemetry/api.
import type { Clock } from '../clock.js';
import type { ProxyConfig } from '../config/types.js';
import { createPrincipalHasher } from '../telemetry/access-log.js';
import { watchDescriptors } from '../telemetry/descriptor-watch.js';
import { FrontTelemetry } from '../telemetry/front-telemetry.js';
import type { Logger } from '../telemetry/logger.js';
import { startMetricsListener } from '../telemetry/metrics-listener.js';
import { ProxyMetrics } from '../telemetry/metrics.js';
import { startTracing } from '../telemetry/tracing.js';
import { VERSION } from '../version.js';

export interface Observability {
  metrics: ProxyMetrics;
  front: FrontTelemetry;
  /** GET /metrics on a listener of its own (--metrics-port); undefined: on the MCP listener. */
  metricsUrl: string | undefined;
  /** Stops the metrics listener and the descriptor watch, and exports the spans still buffered. */
  close(): Promise<void>;
}

/** Throws when the metrics listener cannot listen. */
export async function startObservability(config: ProxyConfig, log: Logger, traceSdk: boolean, clock: Clock): Promise<Observability> {
  const metrics = new ProxyMetrics();
  const tracing = traceSdk ? await startTracing(config.tracing, VERSION) : undefined;
  if (tracing) log.debug('exporting OpenTelemetry traces over OTLP', { protocol: config.tracing.kind === 'otlp' ? config.tracing.protocol : undefined });
  const listener = config.metricsPort === undefined ? undefined : await startMetricsListener(config.metricsPort, metrics);
  const front = new FrontTelemetry({
    metrics,
    metricsOnMainListener: listener === undefined,
    accessLog: config.accessLog,
    log,
    hashPrincipal: createPrincipalHasher(config.stateKey.bytes),
  });
  const stopWatching = watchDescriptors((ms, fn) => clock.every(ms, fn), log);
  return {
    metrics,
    front,
    metricsUrl: listener?.url,
    async close() {
      stopWatching();
      await listener?.close();
      await tracing?.shutdown().catch((err: Error) => log.warn('could not export the last spans', { error: err.message }));
    },
  };
}
