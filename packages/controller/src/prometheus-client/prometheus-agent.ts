/**
 * The one undici Agent promop uses for every Prometheus pod: keep-alive connections are reused across
 * reconciles, and every phase of a request is bounded so a hung pod cannot stall a reconcile worker.
 */
import { Agent } from 'undici';
import { RELOAD_TIMEOUT_MS } from './prometheus-client.ts';

/** Timeouts and limits of the Prometheus Agent, in milliseconds / bytes. */
export interface PrometheusAgentOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  /**
   * Responses above this are aborted. The largest answers: a loaded config of a few MiB (the Secret holds 1 MiB),
   * and /metrics of a Prometheus too old to filter it by name (about 2 KiB per job, so 40 MiB at 20,000 jobs).
   */
  maxResponseBytes?: number;
}

/**
 * A new Agent. Create one per process, and one per TLS identity (PrometheusReloader does), and close it on shutdown. The defaults are
 * short because Prometheus answers these endpoints from memory; a reload of a large config takes long (it is
 * synchronous, and Prometheus parses scrape files twice per reload), hence the long headers timeout: as long as
 * the client's RELOAD_TIMEOUT_MS.
 */
export function createPrometheusAgent(options: PrometheusAgentOptions = {}, tls: Record<string, unknown> = {}): Agent {
  return new Agent({
    // `tls`: options of tls.connect for pods that serve HTTPS (pod-tls.ts).
    connect: { timeout: options.connectTimeoutMs ?? 2_000, ...tls },
    headersTimeout: options.headersTimeoutMs ?? RELOAD_TIMEOUT_MS,
    bodyTimeout: options.bodyTimeoutMs ?? 10_000,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
    // A couple of connections per pod is plenty: promop calls each pod sequentially.
    connections: 2,
    maxResponseSize: options.maxResponseBytes ?? 64 * 1024 * 1024,
  });
}
