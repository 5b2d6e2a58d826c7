/**
 * Writes the generated files of charts/promop: the ClusterRole rules from OPERATOR_CLUSTER_ROLE_RULES and (so that
 * one command refreshes everything the chart copies) the CRDs from crds/. Run after changing either source:
 * `node packages/controller/scripts/generate-chart-rbac.ts`. packages/controller/src/chart/chart-files.test.ts fails
 * while the committed files differ from what this writes.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CHART_DIR, GENERATED_DIRS, renderChartFiles } from '../src/chart/chart-files.ts';

const files = renderChartFiles();
// Remove generated files whose source is gone (a CRD kind removed), so the generated folders hold exactly the set.
for (const dir of GENERATED_DIRS) {
  mkdirSync(join(CHART_DIR, dir), { recursive: true });
  for (const name of readdirSync(join(CHART_DIR, dir))) if (!files.has(`${dir}/${name}`)) rmSync(join(CHART_DIR, dir, name));
}
for (const [path, text] of files) {
  mkdirSync(dirname(join(CHART_DIR, path)), { recursive: true });
  writeFileSync(join(CHART_DIR, path), text);
  console.log(`charts/promop/${path}: ${Buffer.byteLength(text)} bytes`);
}
