/**
 * The seam between the controller and the pods of both programs, Prometheus and Alertmanager: the controller asks a
 * PodConfigVerifier to make a pod run the config it just applied, and maps the outcome to status, events and metrics.
 *
 * Pods → URLs: the controller (reload/shard-reloader.ts) lists the pods of a Prometheus shard or of an Alertmanager
 * (label selector of its StatefulSet), skips those without `status.podIP` or not Running and Ready, and calls
 * `prometheusPodUrl(pod.status.podIP, port)`, i.e. `http://<pod IP>:9090` (`https://` when the Prometheus serves
 * HTTPS, with the TLS of pod-tls.ts; Alertmanager: 9093) — the container
 * port of the `web` port. Pod
 * IPs, not Service or DNS names: each replica must be reloaded and verified on its own, and IPs let the network
 * policy below hold without DNS. In tests the URLs are the 127.0.0.1 ones of `startPrometheus`.
 *
 * Network safety: every URL must have an IP-literal host inside `allowedNetworks` (in a cluster, the pod
 * CIDR(s); in tests, `['127.0.0.1']`); anything else is refused before a socket is opened (url-policy.ts).
 */
import { createHash } from 'node:crypto';
import type { BlockList } from 'node:net';
import type { Agent } from 'undici';
import { PROMETHEUS_PORT } from '../workload/index.ts';
import { createPrometheusAgent, type PrometheusAgentOptions } from './prometheus-agent.ts';
import { PrometheusClient } from './prometheus-client.ts';
import { reloadAndVerifyAlertmanager } from './alertmanager-reload.ts';
import { reloadAndVerifyThanosRuler } from './thanos-ruler-reload.ts';
import { reloadAndVerify, type ReloadOutcome } from './reload-and-verify.ts';
import type { ExpectedRuleFiles } from './rule-groups-comparison.ts';
import { allowListOf, type AllowedNetworks } from './url-policy.ts';
import { tlsConnectOptions, type ClientCertificate, type PodTls } from './pod-tls.ts';

/** TLS Agents kept at most: one per Prometheus serving HTTPS with a certificate of its own; beyond, the oldest is closed. */
const MAX_TLS_AGENTS = 256;

/** One Prometheus pod to reload. */
export interface ReloadRequest {
  /** Absent or 'prometheus'; 'alertmanager' is AlertmanagerReloadRequest. */
  program?: 'prometheus';
  /** `prometheusPodUrl(pod.status.podIP)`. */
  baseUrl: string;
  expectedConfigText: string;
  /** The shard's complete rule files by in-pod path; omitted: rules are not verified. */
  expectedRuleFiles?: ExpectedRuleFiles;
  /** The jobs of the scrape files the config names; omitted when the jobs are inline. */
  expectedScrapeFileJobs?: readonly string[];
  /** Overrides the reloader's default deadline. */
  timeoutMs?: number;
  /** Aborted when newer files supersede these: no further attempt starts (reload-and-verify.ts). */
  signal?: AbortSignal;
  /** How to call an `https://` baseUrl (pod-tls.ts); ignored for `http://`. */
  tls?: PodTls;
}

/** One Alertmanager pod to reload: it must run exactly `expectedConfigText` (alertmanager-reload.ts). */
export interface AlertmanagerReloadRequest {
  program: 'alertmanager';
  /** `prometheusPodUrl(pod.status.podIP, 9093, routePrefix)`. */
  baseUrl: string;
  expectedConfigText: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** How to call an `https://` baseUrl (pod-tls.ts); ignored for `http://`. */
  tls?: PodTls;
}

/** One thanos rule pod to reload: it must evaluate exactly the groups of `expectedRuleFiles` (thanos-ruler-reload.ts). */
export interface ThanosRulerReloadRequest {
  program: 'thanos-ruler';
  /** `prometheusPodUrl(pod.status.podIP, 10902, routePrefix)`. */
  baseUrl: string;
  expectedRuleFiles: ExpectedRuleFiles;
  /** Its external labels' names, which its rules API adds to every rule's labels (thanos-ruler-reload.ts). */
  externalLabels: readonly string[];
  /** How to call it when it serves HTTPS (`spec.web.tlsConfig`); unset for plain HTTP. */
  tls?: PodTls;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What the controller depends on (a fake in controller unit tests, PrometheusReloader in the operator). */
export interface PodConfigVerifier {
  /** Reloads one pod and verifies it runs the expected files; never throws for a pod's answers or absence. */
  reloadAndVerify(request: ReloadRequest | AlertmanagerReloadRequest | ThanosRulerReloadRequest): Promise<ReloadOutcome>;
}

/** How the reloader reaches pods. */
export interface PrometheusReloaderOptions {
  /**
   * CIDRs or addresses pods may have (see url-policy.ts), or a function giving the current allow-list (the pod
   * networks read from the Nodes change as Nodes join; see reload/pod-networks.ts). Read on every request.
   */
  allowedNetworks: AllowedNetworks | (() => BlockList);
  /** Default deadline per pod; 90 s covers the kubelet's default one-minute sync. */
  timeoutMs?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  agent?: PrometheusAgentOptions;
  /**
   * promop's client certificate for pods that ask for one (`promop run --prometheus-client-cert/-key`), read on
   * every HTTPS request so that a renewed certificate is used without a restart. Undefined: none.
   */
  clientCertificate?: () => ClientCertificate | undefined;
}

/** The PodConfigVerifier that calls pods over HTTP through one shared keep-alive Agent. Call `close()` on shutdown. */
export class PrometheusReloader implements PodConfigVerifier {
  readonly #options: PrometheusReloaderOptions;
  readonly #allowed: () => BlockList;
  readonly #agent: Agent;
  /** One Agent per TLS identity (pinned serving certificate and client certificate), by a hash of both. */
  readonly #tlsAgents = new Map<string, Agent>();

  /** Throws if `allowedNetworks` has a malformed entry (promop's own configuration). */
  constructor(options: PrometheusReloaderOptions) {
    this.#options = options;
    const { allowedNetworks } = options;
    if (typeof allowedNetworks === 'function') {
      this.#allowed = allowedNetworks;
    } else {
      const fixed = allowListOf(allowedNetworks);
      this.#allowed = () => fixed;
    }
    this.#agent = createPrometheusAgent(options.agent);
  }

  /** A client for one pod, sharing this reloader's Agent (for HTTPS, the Agent of `tls`) and network policy. */
  client(baseUrl: string, tls?: PodTls): PrometheusClient {
    return new PrometheusClient({ baseUrl, allowed: this.#allowed(), agent: baseUrl.startsWith('https:') ? this.#tlsAgent(tls ?? {}) : this.#agent });
  }

  #tlsAgent(tls: PodTls): Agent {
    const client = this.#options.clientCertificate?.();
    const key = createHash('sha256').update(JSON.stringify([tls.servingCertificate ?? '', client?.cert ?? '', client?.key ?? ''])).digest('hex');
    let agent = this.#tlsAgents.get(key);
    if (!agent) {
      // A renewed certificate makes a new Agent; the previous one has no further use.
      if (this.#tlsAgents.size >= MAX_TLS_AGENTS) {
        const [oldest, old] = this.#tlsAgents.entries().next().value!;
        this.#tlsAgents.delete(oldest);
        void old.close();
      }
      agent = createPrometheusAgent(this.#options.agent, tlsConnectOptions(tls, client));
      this.#tlsAgents.set(key, agent);
    }
    return agent;
  }

  async reloadAndVerify(request: ReloadRequest | AlertmanagerReloadRequest | ThanosRulerReloadRequest): Promise<ReloadOutcome> {
    const polling = {
      timeoutMs: request.timeoutMs ?? this.#options.timeoutMs ?? 90_000,
      ...(this.#options.initialDelayMs !== undefined ? { initialDelayMs: this.#options.initialDelayMs } : {}),
      ...(this.#options.maxDelayMs !== undefined ? { maxDelayMs: this.#options.maxDelayMs } : {}),
      ...(request.signal !== undefined ? { signal: request.signal } : {}),
    };
    if (request.baseUrl.startsWith('https:') && request.tls?.clientCertificateRequired && !this.#options.clientCertificate?.()) {
      const program = request.program === 'alertmanager' ? 'Alertmanager' : request.program === 'thanos-ruler' ? 'thanos rule' : 'Prometheus';
      return {
        outcome: 'failed', attempts: 0, elapsedMs: 0,
        reason: `spec.web.tlsConfig.clientAuthType makes ${program} refuse clients without a certificate, and promop has none: start promop run with --prometheus-client-cert and --prometheus-client-key (docs/security.md)`,
      };
    }
    const client = this.client(request.baseUrl, request.tls);
    if (request.program === 'thanos-ruler') return reloadAndVerifyThanosRuler({ client, expectedRuleFiles: request.expectedRuleFiles, externalLabels: request.externalLabels, ...polling });
    if (request.program === 'alertmanager') return reloadAndVerifyAlertmanager({ client, expectedConfigText: request.expectedConfigText, ...polling });
    return reloadAndVerify({
      client,
      expectedConfigText: request.expectedConfigText,
      ...(request.expectedRuleFiles !== undefined ? { expectedRuleFiles: request.expectedRuleFiles } : {}),
      ...(request.expectedScrapeFileJobs !== undefined ? { expectedScrapeFileJobs: request.expectedScrapeFileJobs } : {}),
      ...polling,
    });
  }

  /** Closes the Agent's idle connections; later calls fail. */
  async close(): Promise<void> {
    await Promise.all([this.#agent, ...this.#tlsAgents.values()].map((agent) => agent.close()));
    this.#tlsAgents.clear();
  }
}

/**
 * `http://<ip>:9090`, with IPv6 addresses in brackets, followed by Prometheus' `--web.route-prefix` when it is
 * not `/` (Prometheus serves /-/reload and the API below the prefix).
 */
export function prometheusPodUrl(podIP: string, port: number = PROMETHEUS_PORT, routePrefix = '/', scheme: 'http' | 'https' = 'http'): string {
  const prefix = routePrefix.replace(/\/+$/, '');
  return `${scheme}://${podIP.includes(':') ? `[${podIP}]` : podIP}:${port}${prefix === '' ? '' : prefix.startsWith('/') ? prefix : `/${prefix}`}`;
}
