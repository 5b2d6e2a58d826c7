/**
 * The discovery kinds whose CRD lists are opaque (all seventeen prometheus-operator v0.93 has besides static, file,
 * HTTP, Kubernetes, Consul and DNS discovery), in the order it writes their keys after those six. A new kind is one
 * entry here plus its module.
 */
import type { ScrapeConfig } from '@promop/crds';
import type { HttpClientContext } from '../../http-client/index.ts';
import { isAtLeast } from '../../prometheus-version.ts';
import { azureDiscovery } from './azure.ts';
import type { DiscoveryKind } from './discovery-kind.ts';
import { digitalOceanDiscovery } from './digitalocean.ts';
import { dockerDiscovery } from './docker.ts';
import { dockerSwarmDiscovery } from './dockerswarm.ts';
import { ec2Discovery } from './ec2.ts';
import { eurekaDiscovery } from './eureka.ts';
import { gceDiscovery } from './gce.ts';
import { hetznerDiscovery } from './hetzner.ts';
import { ionosDiscovery } from './ionos.ts';
import { kumaDiscovery } from './kuma.ts';
import { lightsailDiscovery } from './lightsail.ts';
import { linodeDiscovery } from './linode.ts';
import { nomadDiscovery } from './nomad.ts';
import { openStackDiscovery } from './openstack.ts';
import { ovhCloudDiscovery } from './ovhcloud.ts';
import { puppetDbDiscovery } from './puppetdb.ts';
import { scalewayDiscovery } from './scaleway.ts';

type Spec = ScrapeConfig['spec'];

/** The kinds, in prometheus-operator's key order. */
export const OPAQUE_DISCOVERY_KINDS: readonly DiscoveryKind[] = [
  ec2Discovery, azureDiscovery, gceDiscovery, openStackDiscovery, digitalOceanDiscovery, kumaDiscovery, eurekaDiscovery, dockerDiscovery, linodeDiscovery,
  hetznerDiscovery, nomadDiscovery, dockerSwarmDiscovery, puppetDbDiscovery, lightsailDiscovery, ovhCloudDiscovery, scalewayDiscovery,
  ionosDiscovery,
];

/** Every spec field of a discovery kind promop renders from an opaque list (the file-access check walks them). */
export const OPAQUE_DISCOVERY_FIELDS: readonly string[] = OPAQUE_DISCOVERY_KINDS.map((kind) => kind.field);

/**
 * Appends the `*_sd_configs` key of each opaque kind `spec` uses; a kind the Prometheus version does not know is a
 * problem at its field.
 */
export function appendOpaqueDiscovery(cfg: Record<string, unknown>, spec: Spec, hc: HttpClientContext): void {
  for (const kind of OPAQUE_DISCOVERY_KINDS) {
    const list = (spec as Record<string, unknown>)[kind.field];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      hc.findings.problem(`spec.${kind.field}`, 'must be a list');
      continue;
    }
    if (list.length === 0) continue;
    if (!isAtLeast(hc.version, kind.since)) {
      hc.findings.problem(`spec.${kind.field}`, `${kind.name} service discovery needs Prometheus v${kind.since} or later (configured: ${hc.version.text})`);
      continue;
    }
    const entries = list.map((entry, i) => kind.render(entry, `spec.${kind.field}[${i}]`, hc));
    if (entries.every((entry) => entry !== undefined)) cfg[kind.key] = entries;
  }
}
