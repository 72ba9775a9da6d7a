import type { Context, Span } from "@opentelemetry/api";

type Attributes = Record<string, string | number | boolean>;

/** A span: a call, one of its payment's phases, an upstream exchange. */
export interface Phase {
  /** Runs `work` with this span as the parent of the spans it starts (across its awaits). */
  within<T>(work: () => T): T;
  end(attributes?: Attributes, failed?: boolean): void;
  /** This span as a W3C `traceparent` header, for the next hop. */
  traceparent(): string;
}

export interface Tracer {
  /**
   * A span under `parent`, else under the caller's W3C `traceparent` (a call that arrived with one), else under
   * the span active where it starts, else at the root of a new trace.
   */
  start(
    name: string,
    attributes?: Attributes,
    from?: { parent?: Phase; traceparent?: string | null; tracestate?: string | null; kind?: "server" | "client" },
  ): Phase;
}

/**
 * The tracer, once startTracing has run (OTEL_EXPORTER_OTLP_ENDPOINT is set); undefined otherwise, and then a
 * call path pays one property read for tracing and OpenTelemetry is never loaded.
 */
export const tracing: { tracer?: Tracer } = {};

const traceparentShape = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/;

export interface TracingOptions {
  /** The collector's base URL: spans go to `<endpoint>/v1/traces` as OTLP/HTTP JSON. */
  endpoint: string;
  headers?: Record<string, string>;
  serviceName: string;
}

/** Loads OpenTelemetry and sends every call's spans to the collector, batched; `stop` flushes what is left. */
export async function startTracing(options: TracingOptions) {
  const [api, sdk, { AsyncLocalStorageContextManager }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  const exporter = new OTLPTraceExporter({
    url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces`,
    headers: options.headers,
  });
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(contextManager);
  const otel = provider.getTracer("x402-agent-services");

  /** The caller's span context, when its `traceparent` is valid (W3C Trace Context, level 1). */
  const remote = (traceparent: string, tracestate?: string | null): Context | undefined => {
    const [, version, traceId, spanId, flags] = traceparentShape.exec(traceparent.trim().toLowerCase()) ?? [];
    if (!traceId || version === "ff" || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
    return api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId,
      spanId,
      traceFlags: Number.parseInt(flags, 16) & 1,
      isRemote: true,
      ...(tracestate ? { traceState: api.createTraceState(tracestate) } : {}),
    });
  };
  const contexts = new WeakMap<Phase, Context>();
  const phaseOf = (span: Span, context: Context): Phase => {
    const phase: Phase = {
      within: (work) => api.context.with(context, work),
      end(attributes, failed) {
        if (attributes) span.setAttributes(attributes);
        if (failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      },
      traceparent() {
        const { traceId, spanId, traceFlags } = span.spanContext();
        return `00-${traceId}-${spanId}-0${traceFlags & 1}`;
      },
    };
    contexts.set(phase, context);
    return phase;
  };
  tracing.tracer = {
    start(name, attributes, from = {}) {
      const parent =
        (from.parent && contexts.get(from.parent)) ??
        (from.traceparent ? remote(from.traceparent, from.tracestate) : undefined) ??
        api.context.active();
      const kind =
        from.kind === "server" ? api.SpanKind.SERVER : from.kind === "client" ? api.SpanKind.CLIENT : undefined;
      const span = otel.startSpan(name, { attributes, kind }, parent);
      return phaseOf(span, api.trace.setSpan(parent, span));
    },
  };
  return {
    flush: () => provider.forceFlush(),
    async stop() {
      tracing.tracer = undefined;
      await provider.shutdown();
      contextManager.disable();
      api.context.disable();
    },
  };
}
