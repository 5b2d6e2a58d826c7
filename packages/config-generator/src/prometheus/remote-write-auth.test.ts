/**
 * Remote write authentication beyond the HTTP client's own methods: `azureAd` (prometheus-operator's, with its
 * version handling) and `googleIam` (a promop addition), and the rule Prometheus enforces that an endpoint
 * authenticates one way only. Goldens under test/golden/prometheus/ (`UPDATE_GOLDEN=1` rewrites them); every
 * configuration rendered here also passes the real promtool.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prometheus } from '@promop/crds';
import { refusedProblems, topLevelSection } from '../test-support/config-sections.ts';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput, KeyValueSource } from '../model.ts';
import { expectGoldenFile } from '../test-support/golden-file.ts';
import { promtoolCheckConfigs } from '../test-support/scrape-harness.ts';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden', 'prometheus');

const CLIENT_ID = '1f0c8a52-7d8e-4c5b-9a3e-2b6f4d1e8c70';
const TENANT_ID = '7e2d9b14-3a6c-4f8e-b1d5-9c0a2e4f6b38';
const CLIENT_SECRET = 'azure-s3cret-value';

const SECRETS: KeyValueSource[] = [
  { namespace: 'monitoring', name: 'azure', data: { 'client-secret': CLIENT_SECRET, empty: '' } },
  { namespace: 'team-a', name: 'team-azure', data: { 'client-secret': 'not-ours' } },
  { namespace: 'monitoring', name: 'basic', data: { user: 'writer', password: 'pw' } },
];

function input(spec: Record<string, unknown>): GeneratorInput {
  return {
    prometheus: { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Prometheus,
    serviceMonitors: [],
    podMonitors: [],
    prometheusRules: [],
    namespaces: [{ name: 'monitoring', labels: {} }],
    secrets: SECRETS,
    configMaps: [],
  };
}

const rendered: string[] = [];

function render(spec: Record<string, unknown>): GeneratorOutput {
  const output = generate(input(spec));
  expect(output.prometheusProblems).toEqual([]);
  rendered.push(output.configs[0] ?? '');
  return output;
}

function problems(spec: Record<string, unknown>): string[] {
  return refusedProblems(generate(input(spec)));
}

/** One remote write endpoint with `fields`, on the Prometheus `version` (default: the newest). */
function endpoint(fields: Record<string, unknown>, version?: string): Record<string, unknown> {
  return { ...(version ? { version } : {}), remoteWrite: [{ url: 'https://metrics.example.com/api/v1/write', ...fields }] };
}

/** The remote_write section of a configuration, as text. */
function remoteWriteSection(config: string): string {
  return topLevelSection(config, 'remote_write');
}

const oauth = { clientId: CLIENT_ID, tenantId: 'contoso.onmicrosoft.com', clientSecret: { name: 'azure', key: 'client-secret' } };

describe('remote write azureAd', () => {
  it('renders each way of getting a token in upstream key order, the client secret from the Prometheus namespace', () => {
    const output = render({
      remoteWrite: [
        { url: 'https://ingest-1.monitor.azure.com/write', azureAd: { cloud: 'AzurePublic', managedIdentity: { clientId: CLIENT_ID } }, followRedirects: true },
        { url: 'https://ingest-2.monitor.azure.com/write', azureAd: { cloud: 'AzureGovernment', oauth, scope: 'https://monitor.azure.us/.default' } },
        { url: 'https://ingest-3.monitor.azure.com/write', azureAd: { sdk: { tenantId: TENANT_ID } } },
        { url: 'https://ingest-4.monitor.azure.com/write', azureAd: { workloadIdentity: { clientId: CLIENT_ID, tenantId: TENANT_ID }, cloud: 'AzureChina' } },
        { url: 'https://ingest-5.monitor.azure.com/write', azureAd: { managedIdentity: {}, sdk: undefined } },
      ],
    });
    expectGoldenFile(GOLDEN_DIR, 'remote-write-azure-ad.yaml', output.configs[0] ?? '');
    expect(output.prometheusWarnings).toEqual([]);
  });

  it('writes an sdk without tenantId with an empty tenant_id, as upstream', () => {
    expect(remoteWriteSection(render(endpoint({ azureAd: { sdk: {} } })).configs[0] ?? '')).toContain('  azuread:\n    sdk:\n      tenant_id: ""\n');
  });

  it('is dropped with a warning before Prometheus 2.45, and its scope before 3.9 (as upstream)', () => {
    const old = render(endpoint({ azureAd: { managedIdentity: { clientId: CLIENT_ID } } }, 'v2.44.0'));
    expect(remoteWriteSection(old.configs[0] ?? '')).not.toContain('azuread');
    expect(old.prometheusWarnings).toEqual(['spec.remoteWrite[0].azureAd: ignored because Prometheus v2.44.0 does not support "azuread" (needs v2.45.0 or later)']);
    const noScope = render(endpoint({ azureAd: { oauth, scope: 'api://prometheus/.default' } }, 'v3.8.1'));
    expect(remoteWriteSection(noScope.configs[0] ?? '')).not.toContain('scope');
    expect(noScope.prometheusWarnings).toEqual(['spec.remoteWrite[0].azureAd.scope: ignored because Prometheus v3.8.1 does not support "scope" (needs v3.9.0 or later)']);
  });

  it('refuses a way of getting a token the Prometheus does not have yet (as upstream)', () => {
    expect(problems(endpoint({ azureAd: { oauth } }, 'v2.47.2'))).toEqual(['spec.remoteWrite[0].azureAd.oauth: needs Prometheus 2.48.0 or later (this Prometheus is v2.47.2)']);
    expect(problems(endpoint({ azureAd: { sdk: {} } }, 'v2.51.2'))).toEqual(['spec.remoteWrite[0].azureAd.sdk: needs Prometheus 2.52.0 or later (this Prometheus is v2.51.2)']);
    expect(problems(endpoint({ azureAd: { workloadIdentity: { clientId: CLIENT_ID, tenantId: TENANT_ID } } }, 'v3.6.0'))).toEqual([
      'spec.remoteWrite[0].azureAd.workloadIdentity: needs Prometheus 3.7.0 or later (this Prometheus is v3.6.0)',
    ]);
    expect(problems(endpoint({ azureAd: { managedIdentity: {} } }, 'v3.4.2'))).toEqual([
      'spec.remoteWrite[0].azureAd.managedIdentity.clientId: is required with Prometheus older than 3.5.0 (this Prometheus is v3.4.2)',
    ]);
  });

  it('refuses no way or two ways of getting a token', () => {
    expect(problems(endpoint({ azureAd: { cloud: 'AzurePublic' } }))).toEqual(['spec.remoteWrite[0].azureAd: set one of managedIdentity, oauth, sdk, workloadIdentity']);
    expect(problems(endpoint({ azureAd: { managedIdentity: { clientId: CLIENT_ID }, sdk: {} } }))).toEqual([
      'spec.remoteWrite[0].azureAd: managedIdentity and sdk cannot be set together: set only one',
    ]);
  });

  it('refuses what Prometheus refuses when it loads the file: IDs that are no UUID, a scope with other characters, an unknown cloud', () => {
    expect(problems(endpoint({ azureAd: { managedIdentity: { clientId: 'prometheus' } } }))).toEqual([
      'spec.remoteWrite[0].azureAd.managedIdentity.clientId: "prometheus" is not a UUID such as 00000000-0000-0000-0000-000000000000',
    ]);
    expect(problems(endpoint({ azureAd: { oauth: { ...oauth, clientId: 'app' } } }))).toEqual([
      'spec.remoteWrite[0].azureAd.oauth.clientId: "app" is not a UUID such as 00000000-0000-0000-0000-000000000000',
    ]);
    expect(problems(endpoint({ azureAd: { workloadIdentity: { clientId: CLIENT_ID, tenantId: 'contoso' } } }))).toEqual([
      'spec.remoteWrite[0].azureAd.workloadIdentity.tenantId: "contoso" is not a UUID such as 00000000-0000-0000-0000-000000000000',
    ]);
    expect(problems(endpoint({ azureAd: { oauth, scope: 'api:\\\\prometheus' } }))).toEqual([
      'spec.remoteWrite[0].azureAd.scope: may hold only letters, digits, _, spaces, :, /, . and - (Prometheus refuses other characters)',
    ]);
    expect(problems(endpoint({ azureAd: { sdk: {}, cloud: 'AzureStack' } }))).toEqual([
      'spec.remoteWrite[0].azureAd.cloud: must be one of AzureChina, AzureGovernment, AzurePublic, not "AzureStack"',
    ]);
  });

  it('accepts a UUID in every form Go reads', () => {
    for (const clientId of [CLIENT_ID.toUpperCase(), `{${CLIENT_ID}}`, `urn:uuid:${CLIENT_ID}`, CLIENT_ID.replaceAll('-', '')]) {
      expect(remoteWriteSection(render(endpoint({ azureAd: { managedIdentity: { clientId } } })).configs[0] ?? '')).toContain('client_id:');
    }
  });

  it('refuses a client secret that is missing, empty, or only in another namespace, without repeating a secret value', () => {
    expect(problems(endpoint({ azureAd: { oauth: { ...oauth, clientSecret: { name: 'azure', key: 'empty' } } } }))).toEqual([
      'spec.remoteWrite[0].azureAd.oauth.clientSecret: key "empty" of Secret "azure" is empty; Prometheus needs a client secret',
    ]);
    const elsewhere = problems(endpoint({ azureAd: { oauth: { ...oauth, clientSecret: { name: 'team-azure', key: 'client-secret' } } } }));
    expect(elsewhere).toEqual(['spec.remoteWrite[0].azureAd.oauth.clientSecret: Secret "team-azure" not found in namespace "monitoring"']);
    const output = generate(input(endpoint({ azureAd: { oauth, scope: 'bad\\scope' } })));
    expect(JSON.stringify([output.prometheusProblems, output.prometheusWarnings, output.verdicts])).not.toContain(CLIENT_SECRET);
  });
});

describe('remote write googleIam (a promop addition: prometheus-operator has no such field)', () => {
  it('renders google_iam after azuread\'s place, with or without a credentials file', () => {
    const output = render({
      remoteWrite: [
        { url: 'https://monitoring.googleapis.com/v1/projects/p/location/global/prometheus/api/v1/write', googleIam: { credentialsFile: '/etc/prometheus/secrets/gcp/key.json' }, enableHTTP2: false },
        { url: 'https://monitoring.googleapis.com/v1/projects/q/location/global/prometheus/api/v1/write', googleIam: {} },
      ],
    });
    expectGoldenFile(GOLDEN_DIR, 'remote-write-google-iam.yaml', output.configs[0] ?? '');
  });

  it('is refused, not dropped, before Prometheus 2.55: the samples would go out without credentials', () => {
    expect(problems(endpoint({ googleIam: {} }, 'v2.54.1'))).toEqual(['spec.remoteWrite[0].googleIam: needs Prometheus 2.55.0 or later (this Prometheus is v2.54.1)']);
  });
});

describe('one way of authenticating per remote write endpoint', () => {
  it('refuses azureAd or googleIam beside another method, at the later one', () => {
    const basicAuth = { username: { name: 'basic', key: 'user' }, password: { name: 'basic', key: 'password' } };
    expect(problems(endpoint({ basicAuth, azureAd: { sdk: {} } }))).toEqual([
      'spec.remoteWrite[0].azureAd: azureAd cannot be combined with basicAuth: set only one authentication method',
    ]);
    expect(problems(endpoint({ sigv4: { region: 'eu-west-1' }, azureAd: { sdk: {} }, googleIam: {} }))).toEqual([
      'spec.remoteWrite[0].azureAd: azureAd cannot be combined with sigv4: set only one authentication method',
      'spec.remoteWrite[0].googleIam: googleIam cannot be combined with sigv4 or azureAd: set only one authentication method',
    ]);
    expect(problems(endpoint({ bearerToken: 'token', googleIam: {} }))).toEqual([
      'spec.remoteWrite[0].googleIam: googleIam cannot be combined with bearerToken: set only one authentication method',
    ]);
    expect(problems(endpoint({ basicAuth, sigv4: { region: 'eu-west-1' } }))).toEqual([
      'spec.remoteWrite[0].sigv4: sigv4 cannot be combined with basicAuth: set only one authentication method',
    ]);
  });

  it('what promop refuses here, Prometheus refuses too (promtool)', async () => {
    const write = (fields: string) => `remote_write:\n- url: https://metrics.example.com/write\n${fields}`;
    const refusedByPrometheus = [
      write('  azuread:\n    managed_identity:\n      client_id: prometheus\n'),
      write(`  azuread:\n    oauth:\n      client_id: app\n      client_secret: s\n      tenant_id: t\n`),
      write(`  azuread:\n    workload_identity:\n      client_id: ${CLIENT_ID}\n      tenant_id: contoso\n`),
      write(`  azuread:\n    sdk:\n      tenant_id: ""\n    scope: 'api:\\prometheus'\n`),
      write(`  azuread:\n    oauth:\n      client_id: ${CLIENT_ID}\n      client_secret: ""\n      tenant_id: t\n`),
      write('  azuread:\n    cloud: AzurePublic\n'),
      write(`  azuread:\n    sdk: {}\n    managed_identity: {}\n`),
      write(`  basic_auth:\n    username: u\n    password: p\n  azuread:\n    sdk: {}\n`),
      write('  bearer_token: t\n  google_iam: {}\n'),
    ];
    for (const config of refusedByPrometheus) expect({ config, code: (await promtoolCheckConfigs([config])).code }).toEqual({ config, code: 1 });
  });
});

describe('every configuration rendered above', () => {
  it('passes the real promtool check config', async () => {
    expect(rendered.length).toBeGreaterThanOrEqual(8);
    const result = await promtoolCheckConfigs(rendered);
    expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
  });
});
