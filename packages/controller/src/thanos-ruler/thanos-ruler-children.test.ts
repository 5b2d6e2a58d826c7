import type { ThanosRuler } from '@promop/crds';
import { buildThanosRulerSecrets, buildThanosRulerService, buildThanosRulerStatefulSet, thanosRulerCommand } from './thanos-ruler-children.ts';

const ruler = (spec: Record<string, unknown>, name = 'r'): ThanosRuler =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: 'monitoring', name, uid: 'u-1', labels: { team: 'sre' } }, spec } as ThanosRuler);

function args(spec: Record<string, unknown>): string[] {
  const command = thanosRulerCommand(ruler(spec));
  if (!command.ok) throw new Error(JSON.stringify(command.problems));
  return command.value.args;
}

describe('thanos rule as promop starts it', () => {
  it('passes upstream\'s flags in upstream\'s order, the web config file last', () => {
    expect(args({ queryEndpoints: ['dnssrv+_http._tcp.thanos-query.monitoring.svc'], alertmanagersUrl: ['http://alertmanager-operated:9093'], labels: { region: 'eu', az: 'b' }, alertDropLabels: ['az'], evaluationInterval: '30s', retention: '48h', logLevel: 'info', additionalArgs: [{ name: 'query.http-method', value: 'GET' }] })).toEqual([
      'rule',
      '--data-dir=/thanos/data',
      '--eval-interval=30s',
      '--tsdb.retention=48h',
      '--label=thanos_ruler_replica="$(POD_NAME)"',
      '--label=az="b"',
      '--label=region="eu"',
      '--alert.label-drop=thanos_ruler_replica',
      '--alert.label-drop=az',
      '--rule-file=/etc/thanos/rules/*/*.yaml',
      '--query=dnssrv+_http._tcp.thanos-query.monitoring.svc',
      '--alertmanagers.url=http://alertmanager-operated:9093',
      '--query.http-method=GET',
      '--http.config=/etc/thanos/web_config/web-config.yaml',
    ]);
  });

  it('quotes spec.labels values so that thanos rule reads them back exactly, and refuses a key it cannot parse', () => {
    const labels = args({ queryEndpoints: ['q:10902'], labels: { quote: 'a"b', slash: 'a\\tb', line: 'a\nb', plain: 'é', dollar: '$(POD_NAME) $$' } }).filter((arg) => arg.startsWith('--label='));
    // `$` doubled: the kubelet's expansion of args turns `$$` back into `$` and leaves `$$(POD_NAME)` unexpanded.
    expect(labels).toEqual(['--label=thanos_ruler_replica="$(POD_NAME)"', '--label=dollar="$$(POD_NAME) $$$$"', '--label=line="a\\nb"', '--label=plain="é"', '--label=quote="a\\"b"', '--label=slash="a\\\\tb"']);
    // A key holding `$(VAR)` would otherwise become another label name on each pod.
    expect(args({ queryEndpoints: ['q:10902'], labels: { 'k$(POD_NAME)': 'v' } }).filter((arg) => arg.startsWith('--label=k'))).toEqual(['--label=k$$(POD_NAME)="v"']);
    const command = thanosRulerCommand(ruler({ queryEndpoints: ['q:10902'], labels: { 'a=b': 'x', '': 'y', 'app.kubernetes.io/name': 'ok' } }));
    expect(command.ok ? [] : command.problems).toEqual([
      { path: 'spec.labels.', message: '"" is not a label name thanos rule accepts (non-empty UTF-8 text without "=")' },
      { path: 'spec.labels.a=b', message: '"a=b" is not a label name thanos rule accepts (non-empty UTF-8 text without "=")' },
    ]);
  });

  it('takes the query, Alertmanager and object storage configurations from Secret keys over the lists, mounted under /etc/thanos/config', () => {
    const command = thanosRulerCommand(ruler({
      queryEndpoints: ['ignored:10902'], queryConfig: { name: 'q', key: 'query.yaml' }, alertmanagersConfig: { name: 'am', key: 'am.yaml' },
      alertmanagersUrl: ['http://ignored'], objectStorageConfig: { name: 'obj', key: 'objstore.yaml' },
    }));
    if (!command.ok) throw new Error('refused');
    expect(command.value.args.filter((arg) => /query|alertmanagers|objstore/.test(arg))).toEqual([
      '--query.config-file=/etc/thanos/config/query-config/query.yaml',
      '--alertmanagers.config-file=/etc/thanos/config/alertmanager-config/am.yaml',
      '--objstore.config-file=/etc/thanos/config/objstorage-config/objstore.yaml',
    ]);
    expect(command.value.configFiles.map((file) => file.volume)).toEqual([
      { name: 'query-config', secret: { secretName: 'q', items: [{ key: 'query.yaml', path: 'query.yaml' }] } },
      { name: 'alertmanager-config', secret: { secretName: 'am', items: [{ key: 'am.yaml', path: 'am.yaml' }] } },
      { name: 'objstorage-config', secret: { secretName: 'obj', items: [{ key: 'objstore.yaml', path: 'objstore.yaml' }] } },
    ]);
  });

  it('gates flags on the Thanos release as upstream does', () => {
    const spec = { queryEndpoints: ['q:10902'], ruleQueryOffset: '1m', ruleConcurrentEval: 2, ruleOutageTolerance: '1h', ruleGracePeriod: '10m', enableFeatures: ['x'] };
    expect(args({ ...spec, version: 'v0.29.0' }).some((arg) => /offset|concurrent|outage|grace|feature/.test(arg))).toBe(false);
    expect(args({ ...spec, version: 'v0.39.0' })).toEqual(expect.arrayContaining(['--rule-query-offset=1m', '--rule-concurrent-evaluation=2', '--for-outage-tolerance=1h', '--for-grace-period=10m', '--enable-feature=x']));
    expect(args({ ...spec, version: 'v0.20.0' }).at(-1)).not.toMatch(/http\.config/);
  });

  it('points a stateless ruler (remoteWrite, Thanos >= 0.24.0) at its remote write file after the rule files, as upstream', () => {
    const stateless = args({ queryEndpoints: ['q:10902'], remoteWrite: [{ url: 'http://receive:19291/api/v1/receive' }] });
    expect(stateless.slice(stateless.indexOf('--rule-file=/etc/thanos/rules/*/*.yaml'), stateless.indexOf('--query=q:10902') + 1)).toEqual([
      '--rule-file=/etc/thanos/rules/*/*.yaml', '--remote-write.config-file=/etc/thanos/config/remote-write-config/remote-write.yaml', '--query=q:10902',
    ]);
    expect(args({ queryEndpoints: ['q:10902'] }).some((arg) => arg.startsWith('--remote-write'))).toBe(false);
    expect(args({ queryEndpoints: ['q:10902'], version: 'v0.23.0', remoteWrite: [{ url: 'http://x' }] }).some((arg) => arg.startsWith('--remote-write'))).toBe(false);
  });

  it('refuses what it cannot run, each at its path', () => {
    const command = thanosRulerCommand(ruler({ version: 'latest', queryEndpoints: ['q'] }));
    expect(command.ok).toBe(false);
    const refused = thanosRulerCommand(ruler({ queryEndpoints: ['q'], version: 'v0.20.0', web: { httpConfig: { http2: false } }, additionalArgs: [{ name: 'no-data-dir' }] }));
    expect(refused.ok ? [] : refused.problems.map((problem) => problem.path)).toEqual(['spec.web', 'spec.additionalArgs[0].name']);
    const badTls = thanosRulerCommand(ruler({ queryEndpoints: ['q'], web: { tlsConfig: { cert: { secret: { name: 'web', key: 'tls.crt' } }, keySecret: { name: 'web', key: 'tls.key' }, clientAuthType: 'Sometimes' } } }));
    expect(badTls.ok ? [] : badTls.problems.map((problem) => problem.path)).toEqual(['spec.web.tlsConfig.clientAuthType']);
    const tls = thanosRulerCommand(ruler({ queryEndpoints: ['q'], grpcServerTlsConfig: { certFile: '/tls/tls.crt', caFile: '/tls/ca.crt', keySecret: { name: 'tls', key: 'tls.key' } } }));
    expect(tls.ok ? [] : tls.problems.map((problem) => problem.path)).toEqual(['spec.grpcServerTlsConfig.keySecret', 'spec.grpcServerTlsConfig.keyFile']);
    const noQuery = thanosRulerCommand(ruler({}));
    expect(noQuery.ok ? [] : noQuery.problems).toEqual([{ path: 'spec.queryEndpoints', message: 'thanos rule needs an API to evaluate rules against: set queryEndpoints or queryConfig' }]);
  });
});

describe('the children of a ThanosRuler', () => {
  const thanosRuler = ruler({ queryEndpoints: ['q:10902'], objectStorageConfig: { name: 'obj', key: 'objstore.yaml' }, version: 'v0.42.2', volumeMounts: [{ name: 'extra', mountPath: '/extra' }], volumes: [{ name: 'extra', emptyDir: {} }] });
  const command = thanosRulerCommand(thanosRuler);
  if (!command.ok) throw new Error('refused');
  const statefulSet = buildThanosRulerStatefulSet(thanosRuler, command.value, ['thanos-ruler-r-rulefiles-0']);
  const pod = statefulSet.spec!.template;
  const container = pod.spec!.containers[0]!;

  it('mounts upstream\'s volumes in upstream\'s order', () => {
    expect(pod.spec!.volumes!.map((volume) => volume.name)).toEqual(['remote-write-config', 'objstorage-config', 'tls-assets', 'web-config', 'thanos-ruler-r-rulefiles-0', 'thanos-ruler-r-data', 'extra']);
    expect(container.volumeMounts!.map((mount) => `${mount.name}:${mount.mountPath}`)).toEqual([
      'remote-write-config:/etc/thanos/config/remote-write-config', 'objstorage-config:/etc/thanos/config/objstorage-config', 'tls-assets:/etc/thanos/certs',
      'web-config:/etc/thanos/web_config/web-config.yaml', 'thanos-ruler-r-data:/thanos/data', 'thanos-ruler-r-rulefiles-0:/etc/thanos/rules/thanos-ruler-r-rulefiles-0', 'extra:/extra',
    ]);
    expect(pod.spec!.volumes![4]).toEqual({ name: 'thanos-ruler-r-rulefiles-0', configMap: { name: 'thanos-ruler-r-rulefiles-0', optional: true } });
  });

  it('runs the Thanos image of the version, with upstream\'s labels, ports and defaults', () => {
    expect(container).toMatchObject({
      name: 'thanos-ruler', image: 'quay.io/thanos/thanos:v0.42.2', resources: { requests: { memory: '200Mi' } },
      ports: [{ name: 'grpc', containerPort: 10901, protocol: 'TCP' }, { name: 'web', containerPort: 10902, protocol: 'TCP' }],
      env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    });
    expect(statefulSet.spec).toMatchObject({ serviceName: 'thanos-ruler-operated', podManagementPolicy: 'Parallel', selector: { matchLabels: { 'app.kubernetes.io/name': 'thanos-ruler', 'app.kubernetes.io/instance': 'r', 'thanos-ruler': 'r', 'app.kubernetes.io/managed-by': 'promop' } } });
    expect(pod.metadata!.labels!['app.kubernetes.io/version']).toBe('0.42.2');
    expect(pod.spec!.terminationGracePeriodSeconds).toBe(120);
    expect(statefulSet.metadata!.labels!.team).toBe('sre');
  });

  it('serves HTTPS from the web configuration file of spec.web, its TLS material mounted as for a Prometheus, a new file rolling the pods', () => {
    const secure = ruler({ queryEndpoints: ['q:10902'], web: { tlsConfig: { cert: { secret: { name: 'web', key: 'tls.crt' } }, keySecret: { name: 'web', key: 'tls.key' }, client_ca: { configMap: { name: 'ca', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert' } } });
    const built = thanosRulerCommand(secure);
    if (!built.ok || !built.value.web) throw new Error('refused');
    expect(built.value.args.at(-1)).toBe('--http.config=/etc/thanos/web_config/web-config.yaml');
    expect(built.value.web.text).toContain('cert_file: /etc/thanos/web_config/secret/web-cert/tls.crt');
    const securePod = buildThanosRulerStatefulSet(secure, built.value, ['thanos-ruler-r-rulefiles-0']).spec!.template;
    expect(securePod.spec!.volumes!.map((volume) => volume.name)).toEqual([
      'remote-write-config', 'tls-assets', 'web-config', 'web-config-tls-secret-key-web', 'web-config-tls-secret-cert-web', 'web-config-tls-configmap-client-ca-ca',
      'thanos-ruler-r-rulefiles-0', 'thanos-ruler-r-data',
    ]);
    expect(securePod.spec!.containers[0]!.volumeMounts!.map((mount) => mount.mountPath)).toEqual(expect.arrayContaining([
      '/etc/thanos/web_config/web-config.yaml', '/etc/thanos/web_config/secret/web-key', '/etc/thanos/web_config/secret/web-cert', '/etc/thanos/web_config/configmap/ca-ca',
    ]));
    expect(securePod.metadata!.annotations!['promop.prometheus.io/web-config-hash']).toMatch(/^[0-9a-f]{16}$/);
    expect(pod.metadata!.annotations!['promop.prometheus.io/web-config-hash']).toBeUndefined();
    const webSecret = buildThanosRulerSecrets(secure, { text: 'remote_write: []\n', tlsAssets: {} }, built.value.web).find((secret) => secret.metadata!.name === 'thanos-ruler-r-web-config')!;
    expect(Buffer.from(webSecret.data!['web-config.yaml']!, 'base64').toString()).toBe(built.value.web.text);
  });

  it('writes the Secrets every pod mounts, and a Service of both ports', () => {
    expect(buildThanosRulerSecrets(thanosRuler, { text: 'remote_write: []\n', tlsAssets: { 'b.crt': 'B', 'a.crt': 'A' } }).map((secret) => [secret.metadata!.name, Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]))])).toEqual([
      ['thanos-ruler-r-config', { 'remote-write.yaml': 'remote_write: []\n' }],
      ['thanos-ruler-r-tls-assets-0', { 'a.crt': 'A', 'b.crt': 'B' }],
      ['thanos-ruler-r-web-config', { 'web-config.yaml': '' }],
    ]);
    expect(buildThanosRulerService('monitoring', [thanosRuler]).spec).toEqual({
      clusterIP: 'None',
      ports: [{ name: 'web', port: 10902, targetPort: 'web', protocol: 'TCP' }, { name: 'grpc', port: 10901, targetPort: 'grpc', protocol: 'TCP' }],
      selector: { 'app.kubernetes.io/name': 'thanos-ruler' },
    });
  });
});
