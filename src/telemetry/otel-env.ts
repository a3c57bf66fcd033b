// Whether and how traces are exported, decided from the standard OTEL_* environment variables
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). Tracing is
// off unless OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint is set; a value the proxy cannot honour
// is an error, never silently ignored. Pure.

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export type TracingPlan = { kind: 'off' } | { kind: 'otlp'; protocol: OtlpProtocol };

export class TracingEnvError extends Error {
  override readonly name = 'TracingEnvError';
}

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];

export function tracingPlan(env: Record<string, string | undefined>): TracingPlan {
  const get = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  if (get('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { kind: 'off' };
  const exporters = get('OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (exporters !== undefined) {
    const unsupported = exporters.filter((e) => e !== 'otlp' && e !== 'none');
    if (unsupported.length > 0) throw new TracingEnvError(`OTEL_TRACES_EXPORTER: '${unsupported[0]}' is not supported (otlp or none)`);
    if (!exporters.includes('otlp')) return { kind: 'off' };
  } else if (get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') === undefined && get('OTEL_EXPORTER_OTLP_ENDPOINT') === undefined) {
    return { kind: 'off' };
  }
  const protocolVar = get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  // The specification's default protocol.
  const protocol = get(protocolVar) ?? 'http/protobuf';
  if (!PROTOCOLS.includes(protocol)) throw new TracingEnvError(`${protocolVar}: '${protocol}' is not supported (http/protobuf or http/json)`);
  return { kind: 'otlp', protocol: protocol as OtlpProtocol };
}
