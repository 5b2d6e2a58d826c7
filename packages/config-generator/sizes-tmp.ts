import { generate } from './src/index.ts';
import { RenderMemo } from './src/render-memo.ts';
import { monitorEndpoints } from '../../bench/side-by-side/workload.ts';
const N = Number(process.argv[2] ?? 2000);
const sms = Array.from({ length: N }, (_, i) => ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: `app-${i}`, namespace: `team-${i % 1000}`, uid: `u${i}`, generation: 1, labels: { monitored: 'true' } }, spec: { selector: { matchLabels: { app: 'bench' } }, endpoints: monitorEndpoints('initial') } }));
const prom = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'p', namespace: 'monitoring', uid: 'pu' }, spec: { serviceMonitorSelector: { matchLabels: { monitored: 'true' } }, serviceMonitorNamespaceSelector: {} } };
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  const out: any = generate({ prometheus: prom as any, serviceMonitors: sms as any, podMonitors: [], prometheusRules: [], namespaces: [], secrets: [], configMaps: [], memo: new RenderMemo() } as any);
  const ms = performance.now() - t0;
  const sizes = out.scrapeFiles[0].map((f: any) => Buffer.byteLength(f.text));
  console.log({ ms: Math.round(ms), files: sizes.length, bytes: sizes.reduce((a: number, b: number) => a + b, 0), largest: Math.max(...sizes) });
}
