/**
 * The chart's generated files are current: the ClusterRole rules are OPERATOR_CLUSTER_ROLE_RULES and the CRDs are
 * the repository's crds/ (plus the keep policy). When this fails, run
 * `node packages/controller/scripts/generate-chart-rbac.ts` and commit the result.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { CHART_DIR, GENERATED_DIRS, KEEP_POLICY, REPO_CRDS_DIR, renderChartFiles } from './chart-files.ts';
import { ALL_KINDS } from '@promop/crds';

const REGENERATE = 'stale: run `node packages/controller/scripts/generate-chart-rbac.ts`';

describe('charts/promop generated files', () => {
  const files = renderChartFiles();

  it.each([...files.keys()])('%s is up to date', (path) => {
    const committed = readFileSync(join(CHART_DIR, path), 'utf8');
    // Compare text (not parsed objects) so that a hand edit of a comment is caught too; the message says what to do.
    expect({ path, stale: committed === files.get(path) ? false : REGENERATE }).toEqual({ path, stale: false });
  });

  it.each(GENERATED_DIRS)('%s holds no file the generator no longer writes', (dir) => {
    const extra = readdirSync(join(CHART_DIR, dir)).filter((name) => !files.has(`${dir}/${name}`));
    expect({ extra, hint: extra.length ? REGENERATE : '' }).toEqual({ extra: [], hint: '' });
  });

  it('the generated rules are exactly OPERATOR_CLUSTER_ROLE_RULES', () => {
    expect(load(files.get('files/cluster-role-rules.yaml') ?? '')).toEqual(OPERATOR_CLUSTER_ROLE_RULES);
  });

  it('every CRD of crds/ is in the chart, equal but for the keep policy', () => {
    const names = readdirSync(REPO_CRDS_DIR).filter((n) => n.endsWith('.yaml'));
    expect(names).toHaveLength(ALL_KINDS.length);
    for (const name of names) {
      const source = load(readFileSync(join(REPO_CRDS_DIR, name), 'utf8')) as { metadata: { annotations?: Record<string, string> } };
      const chart = load(files.get(`files/crds/${name}`) ?? '') as { metadata: { annotations?: Record<string, string> } };
      // The revision annotations of crds/ stay: promop run --manage-crds reads them to leave the chart's CRDs alone.
      expect(chart.metadata.annotations).toEqual({ ...source.metadata.annotations, ...KEEP_POLICY });
      expect({ ...chart, metadata: { ...chart.metadata, annotations: undefined } }).toEqual({ ...source, metadata: { ...source.metadata, annotations: undefined } });
    }
  });
});
