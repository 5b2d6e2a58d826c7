/**
 * ThanosRuler: a StatefulSet of `thanos rule` pods that evaluate the teams' PrometheusRules against a Thanos Query
 * (or any Prometheus API) and send the alerts to Alertmanagers. Every field of prometheus-operator v0.93's
 * ThanosRulerSpec is here: the fields promop turns into flags and files are typed (with upstream's enums, patterns
 * and defaults); the Kubernetes types passed into the pod template stay opaque, as for the other workloads.
 */
import {
  bool, count, duration, durationWithDefault, embedded, embeddedList, embeddedObjectMetadataSchema, labelSelectorSchema,
  oneOf, secretKeySelectorSchema, str, stringMap,
} from './common.ts';
import { storageSpecSchema, prometheusSpecSchema } from './prometheus.ts';
import { remoteWriteSpecSchema } from './remote-storage.ts';
import { grpcServerTlsConfigSchema } from './thanos-spec.ts';
import { workloadConditionsSchema } from './prometheus-status.ts';

function secretKey<const D extends string>(description: D) {
  return { ...secretKeySelectorSchema, description } as const;
}

/** One extra flag of `thanos rule`. */
const argumentSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Flag name without the leading dashes.' },
    value: str('Flag value; absent for a flag without one.'),
  },
} as const;

/** The web server of `thanos rule`: the TLS and HTTP settings of its web config file (no page title or connection limit). */
const thanosRulerWebSchema = {
  type: 'object',
  description: 'HTTPS and response headers of the thanos rule web server.',
  additionalProperties: false,
  properties: {
    tlsConfig: prometheusSpecSchema.properties.web.properties.tlsConfig,
    httpConfig: prometheusSpecSchema.properties.web.properties.httpConfig,
  },
} as const;

/** ThanosRuler spec. */
export const thanosRulerSpecSchema = {
  type: 'object',
  description: 'Desired state of a Thanos Ruler: its pods, the PrometheusRules it evaluates, and where it queries and alerts.',
  additionalProperties: false,
  properties: {
    // What it runs.
    version: str('Thanos version, which decides the flags promop passes (default: the Thanos version of the sidecar, v0.42.2).'),
    image: str('Container image; takes precedence over version for the image.'),
    replicas: { type: 'integer', minimum: 0, description: 'Pods (default 1); each evaluates every rule, told apart by the thanos_ruler_replica label.' },
    paused: bool('Stop reconciling this object (the running pods are left alone).'),
    // Rules.
    ruleSelector: { ...labelSelectorSchema, description: 'PrometheusRules to evaluate. Absent selects none; {} selects all.' },
    ruleNamespaceSelector: { ...labelSelectorSchema, description: 'Namespaces to take PrometheusRules from. Absent means the ThanosRuler\'s own namespace; {} means all.' },
    enforcedNamespaceLabel: str('Label set to the namespace of each PrometheusRule on all its series and alerts.'),
    excludedFromEnforcement: prometheusSpecSchema.properties.excludedFromEnforcement,
    prometheusRulesExcludedFromEnforce: prometheusSpecSchema.properties.prometheusRulesExcludedFromEnforce,
    evaluationInterval: durationWithDefault('Default interval between rule evaluations.', '15s'),
    resendDelay: duration('Minimum wait before an alert is sent to Alertmanager again.'),
    ruleOutageTolerance: duration('How far back an alert\'s for state is restored after a restart (Thanos >= 0.30.0).'),
    ruleQueryOffset: duration('How far behind now rules are evaluated (Thanos >= 0.38.0).'),
    ruleConcurrentEval: { type: 'integer', minimum: 1, description: 'Rule groups evaluated at once (Thanos >= 0.37.0).' },
    ruleGracePeriod: duration('Smallest for duration restored after a restart (Thanos >= 0.30.0).'),
    labels: stringMap('External labels of every series and alert of this ruler.'),
    alertDropLabels: { type: 'array', items: { type: 'string' }, description: 'Labels removed from alerts before they are sent (besides thanos_ruler_replica).' },
    alertQueryUrl: str('URL put in the alerts\' generator links (default: the ruler\'s own).'),
    alertRelabelConfigs: secretKey('Secret key with alert relabeling rules applied before alerts are sent.'),
    alertRelabelConfigFile: str('Alert relabeling file in the container; takes precedence over alertRelabelConfigs.'),
    // Where it queries and sends alerts.
    queryEndpoints: { type: 'array', items: { type: 'string' }, description: 'Thanos Query addresses to evaluate rules against (queryConfig takes precedence).' },
    queryConfig: secretKey('Secret key with the query endpoints configuration of thanos rule; takes precedence over queryEndpoints.'),
    alertmanagersUrl: { type: 'array', items: { type: 'string' }, description: 'Alertmanager URLs to send alerts to (alertmanagersConfig takes precedence).' },
    alertmanagersConfig: secretKey('Secret key with the Alertmanagers configuration of thanos rule; takes precedence over alertmanagersUrl.'),
    // Storage and upload.
    retention: durationWithDefault('How long to keep the ruler\'s own TSDB.', '24h'),
    storage: storageSpecSchema('Storage of the ruler\'s TSDB. Absent means an emptyDir.'),
    objectStorageConfig: secretKey('Secret key with the object storage configuration the ruler uploads its blocks with.'),
    objectStorageConfigFile: str('Object storage configuration file in the container; takes precedence over objectStorageConfig.'),
    remoteWrite: { type: 'array', items: remoteWriteSpecSchema, description: 'Remote write endpoints for the rules\' results (stateless ruler, Thanos >= 0.24.0).' },
    tracingConfig: secretKey('Secret key with the tracing configuration (experimental).'),
    tracingConfigFile: str('Tracing configuration file in the container; takes precedence over tracingConfig.'),
    // Serving.
    listenLocal: bool('Serve HTTP on localhost only.'),
    portName: { type: 'string', default: 'web', description: 'Name of the HTTP port.' },
    externalPrefix: str('Prefix of the ruler\'s URLs as seen from outside.'),
    routePrefix: str('Path prefix of the HTTP endpoints.'),
    grpcServerTlsConfig: grpcServerTlsConfigSchema,
    web: thanosRulerWebSchema,
    logLevel: oneOf(['', 'debug', 'info', 'warn', 'error'], 'Log level of thanos rule.'),
    logFormat: oneOf(['', 'logfmt', 'json'], 'Log format of thanos rule.'),
    enableFeatures: { type: 'array', items: { type: 'string', minLength: 1 }, 'x-kubernetes-list-type': 'set', description: 'Thanos feature flags (--enable-feature, Thanos >= 0.39.0).' },
    additionalArgs: { type: 'array', items: argumentSchema, description: 'Extra thanos rule arguments ({name, value}); one that sets a flag promop sets is refused.' },
    // The pods.
    podMetadata: embeddedObjectMetadataSchema,
    imagePullPolicy: oneOf(['', 'Always', 'Never', 'IfNotPresent'], 'Image pull policy of the containers.'),
    imagePullSecrets: embeddedList('Secrets for pulling images (Kubernetes LocalObjectReference).'),
    nodeSelector: stringMap('Node labels the pods must run on.'),
    schedulerName: { type: 'string', minLength: 1, description: 'Scheduler of the pods.' },
    resources: embedded('Compute resources of the thanos-ruler container (Kubernetes ResourceRequirements).'),
    affinity: embedded('Affinity of the pods (Kubernetes Affinity).'),
    tolerations: embeddedList('Tolerations of the pods (Kubernetes Toleration).'),
    topologySpreadConstraints: embeddedList('Topology spread constraints of the pods.'),
    securityContext: embedded('Pod security context (Kubernetes PodSecurityContext).'),
    dnsPolicy: oneOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], 'DNS policy of the pods.'),
    dnsConfig: embedded('DNS settings of the pods.'),
    enableServiceLinks: bool('Inject Service environment variables.'),
    priorityClassName: str('Priority class of the pods.'),
    serviceName: { type: 'string', minLength: 1, description: 'Name of an existing governing Service for the StatefulSet (default thanos-ruler-operated).' },
    serviceAccountName: str('ServiceAccount the pods run as.'),
    volumes: embeddedList('Extra volumes of the pods (Kubernetes Volume).'),
    volumeMounts: embeddedList('Extra volume mounts of the thanos-ruler container (Kubernetes VolumeMount).'),
    containers: embeddedList('Extra containers, or patches of promop\'s container merged by name (Kubernetes Container).'),
    initContainers: embeddedList('Extra init containers (Kubernetes Container).'),
    podManagementPolicy: oneOf(['OrderedReady', 'Parallel'], 'StatefulSet pod management policy (default Parallel).'),
    updateStrategy: embedded('StatefulSet update strategy.'),
    minReadySeconds: count('Seconds a new pod must be ready before it counts as available.'),
    hostAliases: embeddedList('Extra /etc/hosts entries (Kubernetes HostAlias).'),
    hostUsers: bool('Use the host user namespace.'),
    terminationGracePeriodSeconds: count('Seconds a pod gets to stop (default 120).'),
  },
} as const;

/** ThanosRuler status. */
export const thanosRulerStatusSchema = {
  type: 'object',
  description: 'Observed state of the ThanosRuler, written by promop.',
  additionalProperties: false,
  properties: {
    paused: { type: 'boolean', description: 'Whether reconciliation is paused.' },
    replicas: count('Pods of the StatefulSet.'),
    updatedReplicas: count('Pods running the latest spec.'),
    availableReplicas: count('Available pods.'),
    unavailableReplicas: count('Unavailable pods.'),
    conditions: workloadConditionsSchema,
  },
} as const;
