import { parsePrometheusVersion, type PrometheusVersion } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import { testPrometheus, testPrometheusAgent } from '../test-support/workload-fixtures.ts';
import { prometheusArgs } from './prometheus-args.ts';

type Spec = NonNullable<Prometheus['spec']>;
const version = (text: string): PrometheusVersion => parsePrometheusVersion(text)!;
function args(spec: Spec, text = 'v3.16.0'): string[] {
  const result = prometheusArgs(testPrometheus(spec), version(text));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}

describe('Prometheus args', () => {
  it('read the config Secret mount, enable reloads over HTTP and keep data in /prometheus', () => {
    expect(args({})).toEqual([
      '--config.file=/etc/prometheus/config/prometheus.yaml',
      '--web.enable-lifecycle',
      '--web.route-prefix=/',
      '--storage.tsdb.path=/prometheus',
    ]);
  });

  describe('retention', () => {
    it('is left to the config file from Prometheus 3.11', () => {
      expect(args({ retention: '7d' }, 'v3.11.0').join(' ')).not.toMatch(/retention/);
    });

    it('is a flag before 3.11, 24h by default', () => {
      expect(args({}, 'v3.10.0')).toContain('--storage.tsdb.retention.time=24h');
      expect(args({ retention: '7d' }, 'v3.10.0')).toContain('--storage.tsdb.retention.time=7d');
      const sizeOnly = args({ retentionSize: '10GB' }, 'v3.10.0');
      expect(sizeOnly).toContain('--storage.tsdb.retention.size=10GB');
      expect(sizeOnly.join(' ')).not.toMatch(/retention.time/);
    });
  });

  describe('on Prometheus 2', () => {
    it('enable expand-external-labels from 2.27, so ${POD_NAME} in the replica label is expanded, once', () => {
      expect(args({}, 'v2.45.0')).toContain('--enable-feature=expand-external-labels');
      expect(args({ enableFeatures: ['expand-external-labels', 'exemplar-storage'] }, 'v2.45.0'))
        .toContain('--enable-feature=expand-external-labels,exemplar-storage');
      expect(args({}, 'v2.26.0').join(' ')).not.toMatch(/enable-feature/);
    });

    it('point at the console templates', () => {
      expect(args({}, 'v2.45.0')).toEqual(expect.arrayContaining(['--web.console.templates=/etc/prometheus/consoles']));
      expect(args({}).join(' ')).not.toMatch(/console/);
    });
  });

  describe('the OTLP receiver', () => {
    it('is on with enableOTLPReceiver, or with otlp unless enableOTLPReceiver is false (as prometheus-operator)', () => {
      expect(args({ enableOTLPReceiver: true })).toContain('--web.enable-otlp-receiver');
      expect(args({ otlp: { translationStrategy: 'NoTranslation' } })).toContain('--web.enable-otlp-receiver');
      expect(args({ otlp: {}, enableOTLPReceiver: false }).join(' ')).not.toMatch(/otlp/);
      expect(args({}).join(' ')).not.toMatch(/otlp/);
    });

    it('is the otlp-write-receiver feature on Prometheus 2.47 to 2.x, and absent before', () => {
      expect(args({ otlp: {} }, 'v2.55.1')).toContain('--enable-feature=expand-external-labels,otlp-write-receiver');
      expect(args({ enableOTLPReceiver: true, enableFeatures: ['otlp-write-receiver'] }, 'v2.47.0')).toContain('--enable-feature=otlp-write-receiver,expand-external-labels');
      expect(args({ enableOTLPReceiver: true }, 'v2.46.0').join(' ')).not.toMatch(/otlp/);
    });
  });

  describe('tsdb.chunkEncoding.floats: Xor2', () => {
    it('adds the xor2-encoding feature from Prometheus 3.13 unless listed, as prometheus-operator (server and agent)', () => {
      expect(args({ tsdb: { chunkEncoding: { floats: 'Xor2' } } })).toContain('--enable-feature=xor2-encoding');
      expect(args({ enableFeatures: ['xor2-encoding', 'exemplar-storage'], tsdb: { chunkEncoding: { floats: 'Xor2' } } })).toContain('--enable-feature=xor2-encoding,exemplar-storage');
      expect(args({ tsdb: { chunkEncoding: { floats: 'Xor2' } } }, 'v3.12.0').join(' ')).not.toMatch(/enable-feature/);
      expect(args({ tsdb: { chunkEncoding: { floats: 'Xor' } } }).join(' ')).not.toMatch(/enable-feature/);
      const agent = prometheusArgs(testPrometheusAgent({ tsdb: { chunkEncoding: { floats: 'Xor2' } } }), version('v3.16.0'));
      expect(agent.ok && agent.value).toContain('--enable-feature=xor2-encoding');
    });
  });

  describe('the remote write receiver and remote write 2.0', () => {
    it('accept the listed protobuf messages from Prometheus 2.54, only beside the receiver (as prometheus-operator)', () => {
      expect(args({ enableRemoteWriteReceiver: true, remoteWriteReceiverMessageVersions: ['V1.0', 'V2.0'] })).toEqual(expect.arrayContaining([
        '--web.enable-remote-write-receiver', '--web.remote-write-receiver.accepted-protobuf-messages=prometheus.WriteRequest,io.prometheus.write.v2.Request',
      ]));
      expect(args({ enableRemoteWriteReceiver: true, remoteWriteReceiverMessageVersions: ['V2.0'] }, 'v2.53.0').join(' ')).not.toMatch(/accepted-protobuf-messages/);
      expect(args({ remoteWriteReceiverMessageVersions: ['V2.0'] }).join(' ')).not.toMatch(/remote-write-receiver/);
    });

    it('refuse a message version Prometheus does not know, at its path', () => {
      const result = prometheusArgs(testPrometheus({ enableRemoteWriteReceiver: true, remoteWriteReceiverMessageVersions: ['V1.0', 'V3.0'] }), version('v3.16.0'));
      expect(result).toEqual({ ok: false, problems: [{ path: 'spec.remoteWriteReceiverMessageVersions[1]', message: 'must be V1.0 or V2.0, not "V3.0"' }] });
    });

    it('turn on metadata-wal-records for a V2.0 remote write on 2.54 to 3.3, once', () => {
      const remoteWrite = [{ url: 'https://example.com/write' }, { url: 'https://example.com/v2', messageVersion: 'V2.0' as const }];
      expect(args({ remoteWrite }, 'v3.3.0')).toContain('--enable-feature=metadata-wal-records');
      expect(args({ remoteWrite, enableFeatures: ['metadata-wal-records'] }, 'v2.54.0')).toContain('--enable-feature=metadata-wal-records,expand-external-labels');
      expect(args({ remoteWrite }, 'v3.4.0').join(' ')).not.toMatch(/metadata-wal-records/);
      expect(args({ remoteWrite }, 'v2.53.0').join(' ')).not.toMatch(/metadata-wal-records/);
      expect(args({ remoteWrite: [{ url: 'https://example.com/write', messageVersion: 'V1.0' }] }, 'v3.3.0').join(' ')).not.toMatch(/metadata-wal-records/);
    });
  });

  it('allow overlapping blocks (deprecated) on Prometheus 2.11 to 2.38 only, as prometheus-operator', () => {
    expect(args({ allowOverlappingBlocks: true }, 'v2.38.0')).toContain('--storage.tsdb.allow-overlapping-blocks');
    expect(args({ allowOverlappingBlocks: true }, 'v2.39.0').join(' ')).not.toMatch(/overlapping/);
    expect(args({ allowOverlappingBlocks: true }, 'v2.10.0').join(' ')).not.toMatch(/overlapping/);
    expect(args({ allowOverlappingBlocks: false }, 'v2.38.0').join(' ')).not.toMatch(/overlapping/);
  });

  it('turn spec settings into flags, in prometheus-operator\'s order', () => {
    expect(args({
      routePrefix: '/prom', externalUrl: 'https://p.example.com/prom', logLevel: 'debug', logFormat: 'json', enableFeatures: ['native-histograms'],
      enableRemoteWriteReceiver: true, enableAdminAPI: true, walCompression: false, listenLocal: true,
      query: { maxSamples: 100, timeout: '1m' }, web: { pageTitle: 'P' },
    })).toEqual([
      '--config.file=/etc/prometheus/config/prometheus.yaml', '--web.enable-lifecycle', '--web.page-title=P', '--web.enable-remote-write-receiver',
      '--enable-feature=native-histograms', '--web.external-url=https://p.example.com/prom', '--web.route-prefix=/prom', '--log.level=debug',
      '--log.format=json', '--web.listen-address=127.0.0.1:9090', '--storage.tsdb.path=/prometheus', '--web.enable-admin-api',
      '--query.max-samples=100', '--query.timeout=1m', '--no-storage.tsdb.wal-compression',
    ]);
  });

  it('put the console and retention flags where prometheus-operator does, and no query flag for a zero', () => {
    expect(args({ retention: '15d', retentionSize: '40GB', query: { maxSamples: 0, lookbackDelta: '10m', maxConcurrency: 5 } }, 'v2.55.1')).toEqual([
      '--config.file=/etc/prometheus/config/prometheus.yaml', '--web.console.templates=/etc/prometheus/consoles',
      '--web.console.libraries=/etc/prometheus/console_libraries', '--web.enable-lifecycle', '--enable-feature=expand-external-labels',
      '--web.route-prefix=/', '--storage.tsdb.retention.time=15d', '--storage.tsdb.retention.size=40GB', '--storage.tsdb.path=/prometheus',
      '--query.lookback-delta=10m', '--query.max-concurrency=5',
    ]);
  });

  it('append additionalArgs after promop\'s own', () => {
    expect(args({ additionalArgs: [{ name: 'storage.tsdb.no-lockfile' }, { name: 'query.max-concurrency', value: '4' }] }).slice(-2))
      .toEqual(['--storage.tsdb.no-lockfile', '--query.max-concurrency=4']);
  });

  it('refuse additionalArgs that override promop\'s flags, naming each one', () => {
    expect(prometheusArgs(testPrometheus({
      walCompression: true,
      additionalArgs: [{ name: 'config.file', value: '/x' }, { name: 'log.level', value: 'warn' }, { name: 'no-storage.tsdb.wal-compression' }, { name: '--web.enable-lifecycle' }],
    }), version('v3.16.0'))).toEqual({
      ok: false,
      problems: [
        { path: 'spec.additionalArgs[0].name', message: '"config.file" is set by promop and cannot be overridden' },
        { path: 'spec.additionalArgs[2].name', message: '"no-storage.tsdb.wal-compression" is set by promop and cannot be overridden' },
        { path: 'spec.additionalArgs[3].name', message: '"--web.enable-lifecycle" must be written without leading dashes' },
      ],
    });
  });

  describe('of a PrometheusAgent', () => {
    const agentArgs = (spec: NonNullable<Parameters<typeof testPrometheusAgent>[0]>, text = 'v3.16.0') => {
      const result = prometheusArgs(testPrometheusAgent(spec), version(text));
      if (!result.ok) throw new Error(JSON.stringify(result.problems));
      return result.value;
    };

    it('start Prometheus 3 with --agent and the WAL under --storage.agent.path, without retention flags', () => {
      expect(agentArgs({}, 'v3.10.0')).toEqual([
        '--config.file=/etc/prometheus/config/prometheus.yaml',
        '--web.enable-lifecycle',
        '--web.route-prefix=/',
        '--agent',
        '--storage.agent.path=/prometheus',
      ]);
    });

    it('enable the agent feature on Prometheus 2, beside the user\'s features', () => {
      const flags = agentArgs({ enableFeatures: ['exemplar-storage'] }, 'v2.45.0');
      expect(flags).not.toContain('--agent');
      expect(flags).toContain('--enable-feature=exemplar-storage,agent,expand-external-labels');
      expect(flags.join(' ')).not.toMatch(/tsdb|console/);
    });

    it('set WAL compression with the agent\'s flag, and refuse it again in additionalArgs', () => {
      expect(agentArgs({ walCompression: false })).toContain('--no-storage.agent.wal-compression');
      expect(prometheusArgs(testPrometheusAgent({ additionalArgs: [{ name: 'agent' }] }), version('v3.16.0'))).toEqual({
        ok: false, problems: [{ path: 'spec.additionalArgs[0].name', message: '"agent" is set by promop and cannot be overridden' }],
      });
    });
  });
});
