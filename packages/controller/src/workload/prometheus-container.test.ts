import { parsePrometheusVersion, type PrometheusVersion } from '@promop/config-generator';
import { prometheusContainer, prometheusImage } from './prometheus-container.ts';

const version = (text: string): PrometheusVersion => parsePrometheusVersion(text)!;

describe('the prometheus container', () => {
  it('runs the image of spec.version from quay.io, as vX.Y.Z whatever form the version was written in', () => {
    expect(prometheusImage({}, version('v3.16.0'))).toBe('quay.io/prometheus/prometheus:v3.16.0');
    expect(prometheusImage({ version: '2.45' }, version('2.45'))).toBe('quay.io/prometheus/prometheus:v2.45.0');
    expect(prometheusImage({ image: 'registry.local/prom:x' }, version('v3.5.0'))).toBe('registry.local/prom:x');
    expect(prometheusImage({ baseImage: 'mirror/prometheus', tag: 'custom' }, version('v3.5.0'))).toBe('mirror/prometheus:custom');
    expect(prometheusImage({ sha: 'abc' }, version('v3.5.0'))).toBe('quay.io/prometheus/prometheus@sha256:abc');
  });

  it('sets POD_NAME from the pod name, for the replica external label', () => {
    expect(prometheusContainer({}, version('v3.16.0'), [], []).env).toEqual([
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    ]);
  });

  it('probes readiness and health on the web port, under the route prefix', () => {
    const container = prometheusContainer({ routePrefix: '/prom/' }, version('v3.16.0'), [], []);
    expect(container.ports).toEqual([{ name: 'web', containerPort: 9090, protocol: 'TCP' }]);
    expect(container.startupProbe).toEqual({ httpGet: { path: '/prom/-/ready', port: 'web', scheme: 'HTTP' }, timeoutSeconds: 3, periodSeconds: 15, failureThreshold: 60 });
    expect(container.readinessProbe?.httpGet?.path).toBe('/prom/-/ready');
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/prom/-/healthy', port: 'web', scheme: 'HTTP' });
  });

  it('gives the startup probe maximumStartupDurationSeconds as prometheus-operator spreads it (one probe a minute at most)', () => {
    const startup = (seconds?: number) => {
      const probe = prometheusContainer(seconds === undefined ? {} : { maximumStartupDurationSeconds: seconds }, version('v3.16.0'), [], []).startupProbe;
      return [probe?.periodSeconds, probe?.failureThreshold];
    };
    expect(startup()).toEqual([15, 60]);
    expect(startup(900)).toEqual([60, 15]);
    expect(startup(3600)).toEqual([60, 60]);
    expect(startup(100)).toEqual([50, 2]);
    expect(startup(30)).toEqual([15, 60]);
  });

  it('with listenLocal exposes no port and probes from inside the container', () => {
    const container = prometheusContainer({ listenLocal: true }, version('v3.16.0'), [], []);
    expect(container.ports).toBeUndefined();
    expect(container.livenessProbe?.exec?.command?.join(' ')).toMatch(/127\.0\.0\.1:9090\/-\/healthy/);
  });

  it('cannot escalate privileges or write its root filesystem', () => {
    expect(prometheusContainer({}, version('v3.16.0'), [], []).securityContext).toEqual({
      readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] },
    });
  });
});
