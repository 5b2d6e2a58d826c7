/**
 * Shared pieces of the scrape tests (imported by *.test.ts only): a ScrapeContext for the
 * `default/test` Prometheus used by prometheus-operator's goldens, a test certificate, golden
 * file handling (`UPDATE_GOLDEN=1` rewrites) and batched promtool checks.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PodMonitor, Prometheus, ServiceMonitor } from '@promop/crds';
import { checkConfigsWithEachPromtool, promtoolFailures, promtoolVersion, PROMTOOLS, runPromtool, type PromtoolResult } from '@promop/testkit';
import type { KeyValueSource } from '../model.ts';
import { nameValidationSchemeFor } from '../values/prometheus-names.ts';
import { DEFAULT_PROMETHEUS_VERSION, parsePrometheusVersion } from '../prometheus-version.ts';
import { SecretStore } from '../secret-store.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import type { MonitorRendering, ScrapeContext } from '../scrape/scrape-context.ts';

/** Golden files of this module. */
export const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/golden/scrape');

/** A self-signed EC certificate and its key (CN=promop-test, valid until 2126). */
export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBgzCCASmgAwIBAgIUOwbqFEWWMm6OFfvSp90DLgpgmjgwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLcHJvbW9wLXRlc3QwIBcNMjYxMTI5MTcyODI2WhgPMjEyNjEx
MDUxNzI4MjZaMBYxFDASBgNVBAMMC3Byb21vcC10ZXN0MFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEVmS47zKh+TAMQMdTX18jzmD+xEG+YeTlX3VfdkOZURRA77Cv
3pW+6fJfj5DKjzixE85qyeMGGV9U//2zMLPLW6NTMFEwHQYDVR0OBBYEFGxzUyRh
u1X4dIBlSvsYOLtZsnc6MB8GA1UdIwQYMBaAFGxzUyRhu1X4dIBlSvsYOLtZsnc6
MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgIlG0dx3TRvfojj8k
btKtGIugV3cwMJuKTIykMmioA0QCIQDApcNHcfyJfpk8NPmn5rlMeRFxHub81EFv
14JT8poBaw==
-----END CERTIFICATE-----
`;
/** The private key of TEST_CERT. */
export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg/5Vhg2PZvKa51RJ1
r4U+vZMfe/Vanp3W7YM72VUXtW6hRANCAARWZLjvMqH5MAxAx1NfXyPOYP7EQb5h
5OVfdV92Q5lRFEDvsK/elb7p8l+PkMqPOLETzmrJ4wYZX1T//bMws8tb
-----END PRIVATE KEY-----
`;

/** A private key that does not belong to TEST_CERT. */
export const OTHER_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgaAGlTlPrQpkR0512
XG/wRzQdYHdjFwIRBxMikQr/Fe+hRANCAASdPn55W1XgOG+6HyhhVba8YV88ZvpZ
o7UhWYyKFbOLEo9t7Sa99Be8RjqIvILbBd6JKPS/yLTA+GH+IPk45bkw
-----END PRIVATE KEY-----
`;

/** Secrets and ConfigMaps in namespace `default` the tests reference. */
export const TEST_SECRETS: KeyValueSource[] = [
  { namespace: 'default', name: 'creds', data: { user: 'alice', password: 's3cret', token: 'tok3n', 'client-id': 'promop', 'client-secret': 'cl1ent', header: 'Basic eHl6' } },
  { namespace: 'default', name: 'tls', data: { 'ca.crt': TEST_CERT, 'tls.crt': TEST_CERT, 'tls.key': TEST_KEY, 'other.key': OTHER_KEY, garbage: 'not a certificate' } },
  { namespace: 'other', name: 'creds', data: { user: 'mallory' } },
];
export const TEST_CONFIG_MAPS: KeyValueSource[] = [{ namespace: 'default', name: 'ca', data: { 'ca.crt': TEST_CERT } }];

/** The Prometheus `default/test` of prometheus-operator's goldens. */
export function testPrometheus(spec: Partial<NonNullable<Prometheus['spec']>> = {}): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: 'test', namespace: 'default' },
    spec: { scrapeInterval: '30s', evaluationInterval: '30s', ...spec },
  } as Prometheus;
}

/** A ServiceMonitor `namespace/name` with an empty selector and no endpoints unless `spec` says otherwise. */
export function testServiceMonitor(spec: Partial<ServiceMonitor['spec']>, name = 'test', namespace = 'default'): ServiceMonitor {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name, namespace }, spec: { selector: {}, endpoints: [], ...spec } } as ServiceMonitor;
}

/** A PodMonitor `namespace/name` with an empty selector unless `spec` says otherwise. */
export function testPodMonitor(spec: Partial<PodMonitor['spec']>, name = 'test', namespace = 'default'): PodMonitor {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { name, namespace }, spec: { selector: {}, ...spec } } as PodMonitor;
}

/** A context with upstream defaults; override what a test is about. */
export function testContext(overrides: Partial<ScrapeContext> = {}, version = ''): ScrapeContext {
  const parsed = parsePrometheusVersion(version);
  if (!parsed) throw new Error(`bad test version ${version}`);
  const prometheus = overrides.prometheus ?? testPrometheus();
  return {
    prometheus,
    version: parsed,
    nameValidationScheme: nameValidationSchemeFor(parsed, prometheus.spec?.nameValidationScheme),
    secrets: new SecretStore(TEST_SECRETS, TEST_CONFIG_MAPS),
    serviceDiscoveryRole: 'endpoints',
    excludedFromEnforcement: () => false,
    overrideHonorLabels: false,
    overrideHonorTimestamps: false,
    ignoreNamespaceSelectors: false,
    denyFileSystemAccess: false,
    shards: 1,
    shard: 0,
    ...overrides,
  };
}

/** Scrape configs wrapped in the smallest prometheus.yaml that looks like the operator's. */
export function wrapScrapeConfigs(scrapeConfigs: Record<string, unknown>[]): string {
  return toPrometheusYaml({
    global: {
      scrape_interval: '30s',
      external_labels: { prometheus: 'default/test', prometheus_replica: '$(POD_NAME)' },
      evaluation_interval: '30s',
    },
    scrape_configs: scrapeConfigs,
  });
}

/** Path of golden `name` (without extension). */
export function goldenPath(name: string): string {
  return join(GOLDEN_DIR, `${name}.yaml`);
}

/**
 * The stored golden text, after rewriting it with `actual` when UPDATE_GOLDEN=1. Compare the
 * result with `actual` in the test.
 */
export function readGolden(name: string, actual: string): string {
  const file = goldenPath(name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, actual);
  }
  return existsSync(file) ? readFileSync(file, 'utf8') : `<missing golden ${file}; run with UPDATE_GOLDEN=1>`;
}

/**
 * Checks many configs with one promtool run (`check config --syntax-only a.yaml b.yaml …`).
 * Returns promtool's result plus the file name of each config so failures can be traced.
 */
export async function promtoolCheckConfigs(configs: string[]): Promise<PromtoolResult & { files: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'promop-scrape-'));
  try {
    const files = configs.map((text, i) => {
      const file = join(dir, `config-${i}.yaml`);
      writeFileSync(file, text);
      return file;
    });
    const result = await runPromtool(['check', 'config', '--syntax-only', ...files]);
    return { ...result, files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What every golden case of a scraping kind has besides the object it renders. */
export interface GoldenCaseBase {
  /** The golden file's name (without extension). */
  name: string;
  ctx?: Partial<ScrapeContext>;
  version?: string;
  /** Warnings the rendering must report (fields dropped for the version…). */
  warnings?: string[];
  tlsAssets?: string[];
}

/**
 * The golden tests of one scraping kind: each case renders as its golden file with exactly the warnings and TLS
 * assets it names, and all the goldens together pass `promtool check config` (one run).
 */
export function describeGoldens<C extends GoldenCaseBase>(title: string, cases: readonly C[], render: (goldenCase: C, ctx: ScrapeContext) => MonitorRendering): void {
  describe(title, () => {
    const rendered: string[] = [];

    it.each(cases.map((c) => [c.name, c] as const))('%s matches its golden file', (_name, c) => {
      const result = render(c, testContext(c.ctx, c.version));
      if (!result.ok) throw new Error(`rejected: ${JSON.stringify(result.problems)}`);
      expect(result.warnings).toEqual(c.warnings ?? []);
      expect(Object.keys(result.tlsAssets).sort()).toEqual(c.tlsAssets ?? []);
      const text = wrapScrapeConfigs(result.scrapeConfigs);
      rendered.push(text);
      expect(text).toBe(readGolden(c.name, text));
    });

    it('every golden passes the promtool check config of each built release as new as the one it is rendered for', async () => {
      expect(rendered).toHaveLength(cases.length);
      const failures = await checkWithEachPromtool(rendered.map((text, i) => ({ text, version: cases[i]?.version || DEFAULT_PROMETHEUS_VERSION })));
      expect(failures).toEqual({});
    });

    it('every case rendered for the default release, rendered for each older built release instead, passes that release\'s promtool', async () => {
      // The goldens hold the default release's rendering; what promop writes for an older release it serves (the
      // previous one and the last 2.x release, whose promtools tools/build.sh builds too) must load there as well.
      const older = PROMTOOLS.map((tool) => `v${promtoolVersion(tool).join('.')}`).filter((version) => version !== DEFAULT_PROMETHEUS_VERSION);
      const configs: { text: string; version: string }[] = [];
      for (const version of older) {
        for (const c of cases.filter((candidate) => !candidate.version)) {
          const result = render(c, testContext(c.ctx, version));
          if (result.ok) configs.push({ text: wrapScrapeConfigs(result.scrapeConfigs), version });
        }
      }
      expect(configs.length).toBeGreaterThan(0);
      expect(await checkWithEachPromtool(configs)).toEqual({});
    });
  });
}

/**
 * Checks configuration texts, each with the Prometheus release it is rendered for, with every built promtool as new
 * as that release (one run per promtool); returns the failures by promtool (`{}` when every one passed).
 */
export async function checkWithEachPromtool(configs: readonly { text: string; version: string }[], extraArgs: readonly string[] = []): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'promop-goldens-'));
  try {
    const files = configs.map(({ text, version }, i) => {
      const file = join(dir, `config-${i}.yaml`);
      writeFileSync(file, text);
      return { file, version };
    });
    return promtoolFailures(await checkConfigsWithEachPromtool(files, extraArgs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
