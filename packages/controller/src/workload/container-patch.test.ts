import type { V1Container } from '@kubernetes/client-node';
import { asMarshalled, mergeContainers, patchContainer } from './container-patch.ts';

describe('spec.containers with promop\'s containers', () => {
  const ours: V1Container[] = [{ name: 'prometheus', image: 'p', args: ['--a'] }, { name: 'thanos-sidecar', image: 't' }];

  it('are added after promop\'s, in the user\'s order, when their name is new', () => {
    expect(mergeContainers(ours, [{ name: 'z', image: 'z' }, { name: 'a', image: 'a' }])).toEqual([...ours, { name: 'z', image: 'z' }, { name: 'a', image: 'a' }]);
  });

  it('patch promop\'s container of their name in place, whatever their position', () => {
    expect(mergeContainers(ours, [{ name: 'extra', image: 'e' }, { name: 'thanos-sidecar', image: 'custom' }])).toEqual([ours[0], { name: 'thanos-sidecar', image: 'custom' }, { name: 'extra', image: 'e' }]);
  });
});

describe('patchContainer', () => {
  const base: V1Container = {
    name: 'prometheus', image: 'p', args: ['--a', '--b'],
    env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    resources: { requests: { memory: '200Mi' } },
    startupProbe: { httpGet: { path: '/-/ready', port: 'web' }, failureThreshold: 60 },
    volumeMounts: [{ name: 'config', mountPath: '/etc/config', readOnly: true }],
    securityContext: { readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
  };

  it('keeps POD_NAME beside a new environment variable, the default request beside a limit, the probe beside a new threshold', () => {
    const merged = patchContainer(base, { name: 'prometheus', env: [{ name: 'A', value: 'b' }], resources: { limits: { cpu: '1' } }, startupProbe: { failureThreshold: 120 } });
    expect(merged.env).toEqual([{ name: 'A', value: 'b' }, base.env![0]]);
    expect(merged.resources).toEqual({ requests: { memory: '200Mi' }, limits: { cpu: '1' } });
    expect(merged.startupProbe).toEqual({ httpGet: { path: '/-/ready', port: 'web' }, failureThreshold: 120 });
  });

  it('replaces lists without a merge key whole: args, capabilities', () => {
    const merged = patchContainer(base, { name: 'prometheus', args: ['--c'], securityContext: { capabilities: { drop: ['NET_RAW'] } } });
    expect(merged.args).toEqual(['--c']);
    expect(merged.securityContext).toEqual({ readOnlyRootFilesystem: true, capabilities: { drop: ['NET_RAW'] } });
  });

  it('merges a mount by its path', () => {
    expect(patchContainer(base, { name: 'prometheus', volumeMounts: [{ name: 'other', mountPath: '/etc/config' }] }).volumeMounts).toEqual([{ name: 'other', mountPath: '/etc/config', readOnly: true }]);
  });

  it('lets a pointer field be set to false or 0 (readOnlyRootFilesystem, runAsUser)', () => {
    expect(patchContainer(base, { name: 'prometheus', securityContext: { readOnlyRootFilesystem: false, runAsUser: 0 } }).securityContext)
      .toEqual({ readOnlyRootFilesystem: false, runAsUser: 0, capabilities: { drop: ['ALL'] } });
  });

  it('leaves a container unchanged by an entry holding only its name', () => {
    expect(patchContainer(base, { name: 'prometheus' })).toEqual(base);
  });
});

describe('asMarshalled, what Go\'s JSON keeps of a Container', () => {
  it('leaves out null, empty strings and empty lists, at any depth', () => {
    expect(asMarshalled({ name: 'c', image: '', args: [], env: [{ name: 'A', value: '' }], workingDir: null })).toEqual({ name: 'c', env: [{ name: 'A' }] });
  });

  it('leaves out false and 0 in the fields that are not pointers only', () => {
    expect(asMarshalled({
      name: 'c', stdin: false, tty: true,
      startupProbe: { failureThreshold: 0, periodSeconds: 5, terminationGracePeriodSeconds: 0 },
      ports: [{ containerPort: 80, hostPort: 0 }],
      volumeMounts: [{ name: 'v', mountPath: '/v', readOnly: false }],
      securityContext: { runAsUser: 0, privileged: false },
    }, 'container')).toEqual({
      name: 'c', tty: true,
      startupProbe: { periodSeconds: 5, terminationGracePeriodSeconds: 0 },
      ports: [{ containerPort: 80 }],
      volumeMounts: [{ name: 'v', mountPath: '/v' }],
      securityContext: { runAsUser: 0, privileged: false },
    });
  });

  it('keeps the items of a list of strings as they are, empty ones too', () => {
    expect(asMarshalled({ args: ['', 'x'] })).toEqual({ args: ['', 'x'] });
  });
});
