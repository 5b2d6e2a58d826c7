/**
 * The one undici Agent promop uses for every Prometheus pod: keep-alive connections are reused across
 * reconciles, and every phase of a request is bounded so a hung pod cannot stall a reconcile worker.
 */
import { Agent } from 'undici';

/** Timeouts and limits of the Prometheus Agent, in milliseconds / bytes. */
export interface PrometheusAgentOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /** Responses above this are aborted: a loaded config is at most a few MiB (the Secret holds 1 MiB). */
  maxResponseBytes?: number;
}

/**
 * A new Agent. Create one per process (PrometheusReloader does) and close it on shutdown. The defaults are
 * short because Prometheus answers these endpoints from memory; a reload of a large config can take seconds
 * (it is synchronous), hence the longer headers timeout.
 */
export function createPrometheusAgent(options: PrometheusAgentOptions = {}): Agent {
  return new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 2_000 },
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 10_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
    // A couple of connections per pod is plenty: promop calls each pod sequentially.
    connections: 2,
    maxResponseSize: options.maxResponseBytes ?? 32 * 1024 * 1024,
  });
}
