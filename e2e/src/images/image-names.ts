/**
 * The names of the images built here, in one place. Two of them are not ours to choose: the Prometheus image is
 * named exactly as promop's StatefulSet refers to the default version, and the promop image's tag is the chart's
 * appVersion, the tag the chart deploys when `image.tag` is empty.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAILSAFE_SCHEMA, load } from 'js-yaml';
import { DEFAULT_PROMETHEUS_VERSION, parsePrometheusVersion, type PrometheusVersion } from '@promop/config-generator';
import { prometheusImage } from '@promop/controller/workload/prometheus-container';
import { REPO_ROOT } from '@promop/testkit';

/** The pod sandbox image (containerd's `sandbox_image`): tools/pause. */
export const PAUSE_IMAGE = 'localhost/promop/pause:1.0';

/** The teams' notification endpoint in the alerting tests: tools/webhook-receiver. */
export const WEBHOOK_RECEIVER_IMAGE = 'localhost/promop/webhook-receiver:1.0';

/** The example "checkout" service the tests and the demo monitor: tools/example-app. */
export const EXAMPLE_APP_IMAGE = 'localhost/promop/example-app:1.0';

/** The Prometheus version promop deploys by default, which the Prometheus image must hold. */
export const PROMETHEUS_VERSION: PrometheusVersion = parsePrometheusVersion(DEFAULT_PROMETHEUS_VERSION)!;

/** What promop puts in the StatefulSet of a Prometheus without `spec.image`/`version`: `quay.io/prometheus/prometheus:v3.16.0`. */
export const PROMETHEUS_IMAGE = prometheusImage({}, PROMETHEUS_VERSION);

/** The chart's appVersion (charts/promop/Chart.yaml). */
export const PROMOP_VERSION = chartAppVersion();

/** The operator image, tagged as the chart deploys it by default; the chart's `image.repository` must be set to `localhost/promop/promop`. */
export const PROMOP_IMAGE = `localhost/promop/promop:${PROMOP_VERSION}`;

function chartAppVersion(): string {
  // The failsafe schema reads every scalar as a string: `appVersion: 1.10` stays "1.10", not the number 1.1.
  const chart = load(readFileSync(join(REPO_ROOT, 'charts', 'promop', 'Chart.yaml'), 'utf8'), { schema: FAILSAFE_SCHEMA }) as { appVersion?: unknown };
  if (typeof chart.appVersion !== 'string' || chart.appVersion === '') throw new Error('charts/promop/Chart.yaml has no appVersion');
  return chart.appVersion;
}
