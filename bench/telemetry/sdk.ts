// The OpenTelemetry SDK as a production app registers it, for bench/telemetry's "with SDK" servers:
// AsyncLocalStorage context, every span through a BatchSpanProcessor and the OTLP/HTTP exporter to
// OTEL_EXPORTER_OTLP_ENDPOINT (the bench's own receiver), and the metrics read every 10 s.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] }));
const exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 10_000 })] }));
// Keep only the last export: the bench runs for minutes.
setInterval(() => exporter.reset(), 10_000).unref();
