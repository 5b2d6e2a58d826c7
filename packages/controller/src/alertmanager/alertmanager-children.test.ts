import type { Alertmanager, AlertmanagerConfig } from '@promop/crds';
import {
  alertmanagerArgs, alertmanagerImage, alertmanagerSpecProblems, buildAlertmanagerService, buildAlertmanagerStatefulSet, buildConfigSecret,
  ROLLING_CONFIG_HASH_ANNOTATION,
} from './alertmanager-children.ts';
import { renderAlertmanagerConfiguration } from './alertmanager-rendering.ts';

const alertmanager = (name: string, spec: NonNullable<Alertmanager['spec']>): Alertmanager => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { name, namespace: 'monitoring', uid: `uid-${name}`, generation: 1 }, spec,
});

describe('the Alertmanager StatefulSet', () => {
  it('meshes three replicas through the governing Service, labelled with the namespace and name', () => {
    const args = alertmanagerArgs(alertmanager('main', { replicas: 3 }));
    expect(args).toContain('--cluster.listen-address=[$(POD_IP)]:9094');
    expect(args.filter((arg) => arg.startsWith('--cluster.peer='))).toEqual([
      '--cluster.peer=alertmanager-main-0.alertmanager-operated:9094',
      '--cluster.peer=alertmanager-main-1.alertmanager-operated:9094',
      '--cluster.peer=alertmanager-main-2.alertmanager-operated:9094',
    ]);
    expect(args).toContain('--cluster.label=monitoring/main');
    expect(args).toContain('--config.file=/etc/alertmanager/config/alertmanager.yaml');
    expect(args).toContain('--data.retention=120h');
  });

  it('turns the mesh off for one replica, unless forced', () => {
    const single = alertmanagerArgs(alertmanager('one', {}));
    expect(single).toContain('--cluster.listen-address=');
    // As upstream, the one replica is named as its own peer: with no listen address nothing gossips.
    expect(single.filter((arg) => arg.startsWith('--cluster.peer='))).toEqual(['--cluster.peer=alertmanager-one-0.alertmanager-operated:9094']);
    expect(alertmanagerArgs(alertmanager('one', { forceEnableClusterMode: true }))).toContain('--cluster.listen-address=[$(POD_IP)]:9094');
  });

  it('passes the flags in prometheus-operator\'s order, defaults left out', () => {
    const args = alertmanagerArgs(alertmanager('main', {
      version: 'v0.33.1', replicas: 2, externalUrl: 'https://am.example', routePrefix: '/am', enableFeatures: ['receiver-name-in-metrics'], minReadySeconds: 30,
      logLevel: 'debug', logFormat: 'json', limits: { maxSilences: 100, maxPerSilenceBytes: '1MiB' }, clusterLabel: 'team', clusterGossipInterval: '300ms',
      additionalArgs: [{ name: 'alerts.gc-interval', value: '10m' }],
    }));
    expect(args).toEqual([
      '--config.file=/etc/alertmanager/config/alertmanager.yaml', '--storage.path=/alertmanager', '--data.retention=120h',
      '--cluster.listen-address=[$(POD_IP)]:9094', '--web.listen-address=:9093', '--web.external-url=https://am.example',
      '--enable-feature=receiver-name-in-metrics', '--web.route-prefix=/am', '--silences.max-silences=100', '--silences.max-per-silence-bytes=1048576',
      '--dispatch.start-delay=30s', '--log.level=debug', '--log.format=json', '--cluster.gossip-interval=300ms', '--cluster.label=team',
      '--cluster.peer=alertmanager-main-0.alertmanager-operated:9094', '--cluster.peer=alertmanager-main-1.alertmanager-operated:9094',
      '--cluster.reconnect-timeout=5m', '--alerts.gc-interval=10m',
    ]);
    const defaults = alertmanagerArgs(alertmanager('main', { version: 'v0.33.1', logLevel: 'info', logFormat: 'logfmt' }));
    expect(defaults.filter((arg) => arg.startsWith('--log.'))).toEqual([]);
  });

  it('gates flags on the version as upstream: features 0.27, silences limits 0.28, start delay 0.30, cluster label 0.26, log format 0.16', () => {
    const spec = { replicas: 2, enableFeatures: ['x'], limits: { maxSilences: 1 }, minReadySeconds: 5, logFormat: 'json' as const };
    const flags = (version: string) => alertmanagerArgs(alertmanager('main', { ...spec, version })).map((arg) => arg.replace(/=.*/, ''));
    expect(flags('v0.15.0')).not.toEqual(expect.arrayContaining(['--log.format']));
    expect(flags('v0.25.0')).toEqual(expect.arrayContaining(['--log.format']));
    expect(flags('v0.25.0')).not.toEqual(expect.arrayContaining(['--cluster.label']));
    expect(flags('v0.26.0')).toEqual(expect.arrayContaining(['--cluster.label']));
    expect(flags('v0.26.0')).not.toEqual(expect.arrayContaining(['--enable-feature']));
    expect(flags('v0.27.0')).toEqual(expect.arrayContaining(['--enable-feature']));
    expect(flags('v0.27.0')).not.toEqual(expect.arrayContaining(['--silences.max-silences']));
    expect(flags('v0.29.0')).toEqual(expect.arrayContaining(['--silences.max-silences']));
    expect(flags('v0.29.0')).not.toEqual(expect.arrayContaining(['--dispatch.start-delay']));
    expect(flags('v0.30.0')).toEqual(expect.arrayContaining(['--dispatch.start-delay']));
    // additionalArgs naming the start delay win: one flag, the team's.
    const own = alertmanagerArgs(alertmanager('main', { version: 'v0.33.1', minReadySeconds: 5, additionalArgs: [{ name: 'dispatch.start-delay', value: '1s' }] }));
    expect(own.filter((arg) => arg.startsWith('--dispatch.start-delay'))).toEqual(['--dispatch.start-delay=1s']);
    // Never a peer name: the mesh keeps its random names (docs/compatibility.md).
    expect(flags('v0.33.1')).not.toEqual(expect.arrayContaining(['--cluster.peer-name']));
  });

  it('lays out the container and pod as upstream: security context, probes, ports, version label, data volume', () => {
    const statefulSet = buildAlertmanagerStatefulSet(alertmanager('main', { version: 'v0.33.1', storage: { emptyDir: {} }, secrets: ['extra'] }), 'abc');
    const pod = statefulSet.spec!.template;
    const container = pod.spec!.containers[0]!;
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(container.livenessProbe).toEqual({ httpGet: { path: '/-/healthy', port: 'web' }, timeoutSeconds: 3, failureThreshold: 10 });
    expect(container.volumeMounts?.find((mount) => mount.mountPath === '/alertmanager')?.subPath).toBe('alertmanager-db');
    expect(pod.spec!.volumes?.map((volume) => volume.name)).toEqual(['config-volume', 'secret-extra', 'alertmanager-main-db']);
    expect(pod.metadata?.labels?.['app.kubernetes.io/version']).toBe('0.33.1');
    expect(pod.spec!.automountServiceAccountToken).toBeUndefined();
    const local = buildAlertmanagerStatefulSet(alertmanager('main', { listenLocal: true }), 'abc').spec!.template.spec!.containers[0]!;
    expect(local.ports?.map((port) => port.name)).toEqual(['mesh-tcp', 'mesh-udp']);
    const claimed = buildAlertmanagerStatefulSet(alertmanager('main', { storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } } }), 'abc');
    expect(claimed.spec?.volumeClaimTemplates?.[0]?.spec?.accessModes).toEqual(['ReadWriteOnce']);
  });

  it('takes the image from spec.image, else from the version (with or without its v)', () => {
    expect(alertmanagerImage({ image: 'registry.example/am:x' })).toBe('registry.example/am:x');
    expect(alertmanagerImage({ version: 'v0.33.1' })).toBe('quay.io/prometheus/alertmanager:v0.33.1');
    expect(alertmanagerImage({ version: '0.33.1' })).toBe('quay.io/prometheus/alertmanager:v0.33.1');
    expect(alertmanagerImage({})).toBe('quay.io/prometheus/alertmanager:v0.35.0');
  });

  it('keeps silences on a claim of the template, mounted at a sub path, and passes pod fields through', () => {
    const statefulSet = buildAlertmanagerStatefulSet(alertmanager('main', {
      replicas: 2,
      storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } },
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      serviceAccountName: 'alertmanager-main',
      podMetadata: { labels: { team: 'platform' } },
    }), 'abc');
    expect(statefulSet.metadata?.name).toBe('alertmanager-main');
    expect(statefulSet.spec?.replicas).toBe(2);
    expect(statefulSet.spec?.serviceName).toBe('alertmanager-operated');
    expect(statefulSet.spec?.volumeClaimTemplates?.map((claim) => claim.metadata?.name)).toEqual(['alertmanager-main-db']);
    const container = statefulSet.spec?.template.spec?.containers[0];
    expect(container?.volumeMounts).toContainEqual({ name: 'alertmanager-main-db', mountPath: '/alertmanager', subPath: 'alertmanager-db' });
    expect(statefulSet.spec?.template.spec?.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(statefulSet.spec?.template.spec?.serviceAccountName).toBe('alertmanager-main');
    // The selector wins over podMetadata, so the pods always match it.
    expect(statefulSet.spec?.template.metadata?.labels).toMatchObject({ team: 'platform', ...statefulSet.spec?.selector.matchLabels });
    // promop reloads the pods: a new configuration is no change of the template.
    expect(statefulSet.spec?.template.metadata?.annotations).not.toHaveProperty(ROLLING_CONFIG_HASH_ANNOTATION);
    expect(statefulSet.metadata?.ownerReferences).toEqual([{ apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', name: 'main', uid: 'uid-main', controller: true, blockOwnerDeletion: true }]);
  });

  it('mounts the generated Secret where upstream mounts notification templates too, only when the configuration has some', () => {
    const mounts = (spec: NonNullable<Alertmanager['spec']>) => buildAlertmanagerStatefulSet(alertmanager('main', spec), 'abc').spec?.template.spec?.containers[0]?.volumeMounts;
    const templates = { name: 'config-volume', mountPath: '/etc/alertmanager/templates', readOnly: true };
    expect(mounts({ alertmanagerConfiguration: { name: 'platform', templates: [{ secret: { name: 'templates', key: 'slack.tmpl' } }] } })).toContainEqual(templates);
    expect(mounts({ alertmanagerConfiguration: { name: 'platform' } })).not.toContainEqual(templates);
  });

  it('rolls the pods of a listenLocal Alertmanager, which promop cannot call, by the configuration\'s hash in the template', () => {
    const local = buildAlertmanagerStatefulSet(alertmanager('main', { listenLocal: true }), 'f00d');
    expect(local.spec?.template.metadata?.annotations?.[ROLLING_CONFIG_HASH_ANNOTATION]).toBe('f00d');
  });
});

describe('the configuration Secret and the governing Service', () => {
  it('writes the configuration under alertmanager.yaml in alertmanager-<name>-generated', () => {
    const secret = buildConfigSecret(alertmanager('main', {}), 'route:\n  receiver: x\n');
    expect(secret.metadata?.name).toBe('alertmanager-main-generated');
    expect(Buffer.from(secret.data?.['alertmanager.yaml'] ?? '', 'base64').toString('utf8')).toBe('route:\n  receiver: x\n');
  });

  it('puts the TLS files the configuration names beside it, in name order, in the same Secret', () => {
    const secret = buildConfigSecret(alertmanager('main', {}), 'route:\n  receiver: x\n', { '1_team-b_ca_ca.crt': 'B', '0_team-a_ca_ca.crt': 'A' });
    expect(Object.keys(secret.data ?? {})).toEqual(['0_team-a_ca_ca.crt', '1_team-b_ca_ca.crt', 'alertmanager.yaml']);
    expect(Buffer.from(secret.data?.['0_team-a_ca_ca.crt'] ?? '', 'base64').toString('utf8')).toBe('A');
  });

  it('serves web and the mesh (TCP and UDP) for every Alertmanager of the namespace, not-ready pods included', () => {
    const service = buildAlertmanagerService('monitoring', [alertmanager('b', {}), alertmanager('a', {})]);
    expect(service.metadata?.name).toBe('alertmanager-operated');
    expect(service.spec?.publishNotReadyAddresses).toBe(true);
    expect(service.spec?.ports?.map(({ name, port, protocol }) => `${name} ${port}/${protocol}`)).toEqual(['web 9093/TCP', 'tcp-mesh 9094/TCP', 'udp-mesh 9094/UDP']);
    expect(service.metadata?.ownerReferences?.map((owner) => [owner.name, owner.controller])).toEqual([['a', false], ['b', false]]);
  });
});

describe('spec.web and spec.clusterTLS', () => {
  it('passes web.getConcurrency and web.timeout after the route prefix, as upstream, from Alertmanager 0.17', () => {
    const args = alertmanagerArgs(alertmanager('main', { web: { getConcurrency: 8, timeout: 0 } }));
    expect(args.slice(args.indexOf('--web.route-prefix=/'), args.indexOf('--web.route-prefix=/') + 3)).toEqual(['--web.route-prefix=/', '--web.get-concurrency=8', '--web.timeout=0']);
    expect(alertmanagerArgs(alertmanager('main', { version: 'v0.16.2', web: { getConcurrency: 8, timeout: 5 } })).filter((arg) => arg.startsWith('--web.get') || arg.startsWith('--web.timeout'))).toEqual([]);
    expect(alertmanagerArgs(alertmanager('main', {})).some((arg) => arg.startsWith('--web.get-concurrency') || arg.startsWith('--web.timeout'))).toBe(false);
  });

  it('refuses, each at its path, TLS settings it cannot write a file of, and counts that are no counts', () => {
    const problems = alertmanagerSpecProblems(alertmanager('main', {
      web: { tlsConfig: { cert: { secret: { name: 'tls', key: 'tls.crt' } } }, httpConfig: { http2: 'no' }, getConcurrency: -1, timeout: 1.5 },
      clusterTLS: { server: {} },
    }));
    expect(problems.map((problem) => problem.path)).toEqual(['spec.web.httpConfig.http2', 'spec.clusterTLS.client', 'spec.web.getConcurrency', 'spec.web.timeout']);
    expect(alertmanagerSpecProblems(alertmanager('main', { web: { tlsConfig: { cert: { secret: { name: 'tls', key: 'tls.crt' } } } } })).map((problem) => problem.path)).toEqual(['spec.web.tlsConfig.keySecret']);
    expect(alertmanagerSpecProblems(alertmanager('main', { web: { getConcurrency: 4, timeout: 30 } }))).toEqual([]);
  });

  it('refuses additionalArgs naming a flag promop sets, or its negation, as upstream does (a second --config.file would win)', () => {
    const problems = alertmanagerSpecProblems(alertmanager('main', {
      replicas: 2,
      additionalArgs: [
        { name: 'config.file', value: '/tmp/mine.yaml' }, { name: 'alerts.gc-interval', value: '10m' }, { name: 'cluster.peer', value: 'x:9094' },
        { name: 'no-web.route-prefix' }, { name: '' }, { name: 'log.level', value: 5 }, {},
      ] as never,
    }));
    expect(problems).toEqual([
      { path: 'spec.additionalArgs[0].name', message: '"config.file" is set by promop and cannot be overridden' },
      { path: 'spec.additionalArgs[2].name', message: '"cluster.peer" is set by promop and cannot be overridden' },
      { path: 'spec.additionalArgs[3].name', message: '"no-web.route-prefix" is set by promop and cannot be overridden' },
      { path: 'spec.additionalArgs[4].name', message: 'must be a non-empty string' },
      { path: 'spec.additionalArgs[5].value', message: 'must be a string' },
      { path: 'spec.additionalArgs[6].name', message: 'must be a non-empty string' },
    ]);
    // Flags promop sets only for some specs are free otherwise: log.level is passed only when it is not info.
    expect(alertmanagerSpecProblems(alertmanager('main', { additionalArgs: [{ name: 'log.level', value: 'debug' }] }))).toEqual([]);
    expect(alertmanagerSpecProblems(alertmanager('main', { logLevel: 'warn', additionalArgs: [{ name: 'log.level', value: 'debug' }] })))
      .toEqual([{ path: 'spec.additionalArgs[0].name', message: '"log.level" is set by promop and cannot be overridden' }]);
    // The start delay promop derives from minReadySeconds gives way to the team's (or its negation), as upstream.
    expect(alertmanagerSpecProblems(alertmanager('main', { version: 'v0.33.1', minReadySeconds: 5, additionalArgs: [{ name: 'no-dispatch.start-delay' }] }))).toEqual([]);
    expect(alertmanagerArgs(alertmanager('main', { version: 'v0.33.1', minReadySeconds: 5, additionalArgs: [{ name: 'no-dispatch.start-delay' }] })).filter((arg) => arg.includes('start-delay')))
      .toEqual(['--no-dispatch.start-delay']);
  });

  it('makes the rendering refuse an Alertmanager whose additionalArgs clash, as for any field of its own spec', () => {
    const rendering = renderAlertmanagerConfiguration(alertmanager('main', { additionalArgs: [{ name: 'storage.path', value: '/elsewhere' }] }), { alertmanagerConfigs: [], namespaces: [], secrets: [] });
    expect(rendering.output).toEqual({ ok: false, problem: { path: 'spec.additionalArgs[0].name', message: '"storage.path" is set by promop and cannot be overridden' }, verdicts: [] });
  });

  it('makes the rendering refuse such an Alertmanager (reconcile, render, explain and diff alike), so nothing is written for it', () => {
    const rendering = renderAlertmanagerConfiguration(alertmanager('main', { clusterTLS: { server: {} } }), { alertmanagerConfigs: [], namespaces: [], secrets: [] });
    expect(rendering.output).toEqual({ ok: false, problem: { path: 'spec.clusterTLS.client', message: expect.stringContaining('must be set') }, verdicts: [] });
  });

  it('keeps every verdict of such an Alertmanager, so the teams\' AlertmanagerConfigs keep their bindings while it is refused', () => {
    const team = (name: string, url: string): AlertmanagerConfig => ({
      apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { namespace: 'monitoring', name },
      spec: { route: { receiver: 'hook' }, receivers: [{ name: 'hook', webhookConfigs: [{ url }] }] },
    });
    const sources = {
      alertmanagerConfigs: [team('good', 'http://hook.example/'), team('broken', 'not a url')],
      namespaces: [{ name: 'monitoring', labels: {} }],
      secrets: [{ namespace: 'monitoring', name: 'alertmanager-main', data: { 'alertmanager.yaml': 'route:\n  receiver: platform\nreceivers:\n- name: platform\n' } }],
    };
    const spec = { alertmanagerConfigSelector: {} };
    const accepted = renderAlertmanagerConfiguration(alertmanager('main', spec), sources).output;
    const refused = renderAlertmanagerConfiguration(alertmanager('main', { ...spec, clusterTLS: { server: {} } }), sources).output;
    expect(refused).toMatchObject({ ok: false, problem: { path: 'spec.clusterTLS.client' } });
    expect(refused.verdicts).toEqual(accepted.verdicts);
    expect(refused.verdicts.map((verdict) => [verdict.resource.name, verdict.selected && verdict.accepted])).toEqual([['broken', false], ['good', true]]);
  });

  it('judges the teams\' objects as well when the configSecret has no alertmanager.yaml, as when its text does not parse', () => {
    const sources = (data: Record<string, string>) => ({
      alertmanagerConfigs: [{
        apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: { namespace: 'monitoring', name: 'team' },
        spec: { route: { receiver: 'mail' }, receivers: [{ name: 'mail', emailConfigs: [{ to: 'team@example.com' }] }] },
      } as AlertmanagerConfig],
      namespaces: [{ name: 'monitoring', labels: {} }],
      secrets: [{ namespace: 'monitoring', name: 'alertmanager-main', data }],
    });
    const spec = { alertmanagerConfigSelector: {} };
    const keyMissing = renderAlertmanagerConfiguration(alertmanager('main', spec), sources({ other: 'x' })).output;
    const notYaml = renderAlertmanagerConfiguration(alertmanager('main', spec), sources({ 'alertmanager.yaml': 'route: [' })).output;
    expect(keyMissing).toMatchObject({ ok: false, problem: { path: 'spec.configSecret', message: 'Secret alertmanager-main has no key alertmanager.yaml' } });
    expect(notYaml).toMatchObject({ ok: false, problem: { path: 'spec.configSecret' } });
    // The platform's global section is unknown then: the email receiver is not refused for lacking a smarthost to fall back on.
    for (const output of [keyMissing, notYaml]) expect(output.verdicts).toEqual([expect.objectContaining({ resource: expect.objectContaining({ name: 'team' }), selected: true, accepted: true })]);
  });
});
