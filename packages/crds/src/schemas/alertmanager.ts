/**
 * Alertmanager: a StatefulSet of Alertmanager pods meshed into one cluster, the platform's base configuration and
 * the selectors of the teams' AlertmanagerConfigs. As for Prometheus, fields promop acts on are typed; pod template
 * fields it passes to Kubernetes are kept opaque (`embedded`), and docs/compatibility.md says what promop does with
 * each.
 */
import {
  bool, byteSize, count, duration, embedded, embeddedList, embeddedObjectMetadataSchema, labelSelectorSchema, oneOf,
  secretKeySelectorSchema, secretOrConfigMapSchema, str, stringList, stringMap, URL_PATTERN,
} from './common.ts';
import { basicAuthSchema, oauth2Schema, proxyProperties, safeAuthorizationSchema } from './http-auth.ts';
import { safeTlsConfigSchema } from './tls-config.ts';
import { withShallowDescriptions } from '../schema-node.ts';
import { alertmanagerConfigStatusSchema, workloadConditionsSchema } from './prometheus-status.ts';
import { storageSpecSchema } from './prometheus.ts';

/** Alertmanager's durations are Go's (no days or weeks), unlike Prometheus'. */
export const GO_DURATION_PATTERN = '^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$';

function goDuration<const D extends string>(description: D) {
  return { type: 'string', pattern: GO_DURATION_PATTERN, description } as const;
}

/** How the routes of a team's AlertmanagerConfig are confined to the alerts of its namespace. */
const matcherStrategySchema = {
  type: 'object',
  description: 'How each AlertmanagerConfig\'s routes and inhibit rules are confined to its namespace\'s alerts.',
  additionalProperties: false,
  properties: {
    type: {
      type: 'string',
      enum: ['OnNamespace', 'OnNamespaceExceptForAlertmanagerNamespace', 'None'],
      default: 'OnNamespace',
      description: 'OnNamespace: only alerts whose namespace label is the object\'s namespace; OnNamespaceExceptForAlertmanagerNamespace: the same, but objects in the Alertmanager\'s own namespace see every alert; None: every alert.',
    },
  },
} as const;

function url<const D extends string>(description: D) {
  return { type: 'string', pattern: URL_PATTERN, description } as const;
}

function secretKey<const D extends string>(description: D) {
  return { ...secretKeySelectorSchema, description } as const;
}

/**
 * Alertmanager's `global` section as prometheus-operator v0.93's AlertmanagerGlobalConfig has it. Its fields are
 * typed, so the API server checks them, but unknown fields are kept rather than pruned: the generator refuses them
 * with their path (upstream's CRD refuses them at admission), where pruning would drop a setting silently. Every
 * Secret is read from the Alertmanager's namespace.
 */
const alertmanagerGlobalConfigSchema = withShallowDescriptions({
  type: 'object',
  description: 'Global settings (SMTP, HTTP client, resolve timeout, receiver API URLs).',
  'x-kubernetes-preserve-unknown-fields': true,
  properties: {
    smtp: {
      type: 'object',
      description: 'Default SMTP settings of email receivers.',
      additionalProperties: false,
      properties: {
        from: str('Default From header.'),
        smartHost: {
          type: 'object',
          description: 'Default SMTP server.',
          required: ['host', 'port'],
          additionalProperties: false,
          properties: { host: { type: 'string', minLength: 1, description: 'Host name or IP address.' }, port: { type: 'string', minLength: 1, description: 'Port number or name.' } },
        },
        hello: str('Host name sent to the SMTP server.'),
        authUsername: str('SMTP authentication username.'),
        authPassword: secretKey('SMTP password (LOGIN and PLAIN authentication).'),
        authIdentity: str('SMTP identity (PLAIN authentication).'),
        authSecret: secretKey('SMTP secret (CRAM-MD5 authentication).'),
        requireTLS: bool('Require STARTTLS.'),
        tlsConfig: safeTlsConfigSchema,
        forceImplicitTLS: bool('Force (true) or disable (false) implicit TLS; unset: by port. Alertmanager 0.31 and later.'),
      },
    },
    resolveTimeout: duration('Time after which an alert without an end time is declared resolved.'),
    httpConfig: {
      type: 'object',
      description: 'Default HTTP client of the notifiers.',
      additionalProperties: false,
      properties: {
        authorization: safeAuthorizationSchema,
        basicAuth: basicAuthSchema,
        oauth2: oauth2Schema,
        bearerTokenSecret: secretKey('Deprecated: bearer token for the Authorization header (use authorization).'),
        tlsConfig: safeTlsConfigSchema,
        ...proxyProperties,
        followRedirects: bool('Follow HTTP 3xx redirects.'),
        enableHttp2: bool('Allow HTTP/2.'),
      },
    },
    slackApiUrl: secretKey('Default Slack webhook URL.'),
    opsGenieApiUrl: secretKey('Default OpsGenie API URL.'),
    opsGenieApiKey: secretKey('Default OpsGenie API key.'),
    pagerdutyUrl: url('Default PagerDuty URL.'),
    telegram: { type: 'object', description: 'Telegram defaults.', additionalProperties: false, properties: { apiURL: url('Default Telegram API URL (Alertmanager 0.24 and later).') } },
    jira: { type: 'object', description: 'Jira defaults.', additionalProperties: false, properties: { apiURL: url('Default Jira API URL (Alertmanager 0.28 and later).') } },
    victorops: {
      type: 'object', description: 'VictorOps defaults.', additionalProperties: false,
      properties: { apiURL: url('Default VictorOps API URL.'), apiKey: secretKey('Default VictorOps API key.') },
    },
    rocketChat: {
      type: 'object', description: 'Rocket.Chat defaults (Alertmanager 0.28 and later).', additionalProperties: false,
      properties: { apiURL: url('Default Rocket.Chat API URL.'), token: secretKey('Default token.'), tokenID: secretKey('Default token ID.') },
    },
    webex: { type: 'object', description: 'Webex defaults.', additionalProperties: false, properties: { apiURL: url('Default Webex API URL (Alertmanager 0.25 and later).') } },
    wechat: {
      type: 'object', description: 'WeChat defaults.', additionalProperties: false,
      properties: { apiURL: url('Default WeChat API URL.'), apiSecret: secretKey('Default API secret.'), apiCorpID: { type: 'string', minLength: 1, description: 'Default corporate ID.' } },
    },
    mattermost: { type: 'object', description: 'Mattermost defaults (Alertmanager 0.32 and later).', additionalProperties: false, properties: { webhookURL: secretKey('Default webhook URL.') } },
  },
} as const);

/** The global part of the configuration, taken from one AlertmanagerConfig of the Alertmanager's namespace. */
const alertmanagerConfigurationSchema = {
  type: 'object',
  description: 'Take the global configuration from an AlertmanagerConfig instead of configSecret.',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'The AlertmanagerConfig, in the Alertmanager\'s namespace, whose route and receivers are the top level (not confined to a namespace).' },
    global: alertmanagerGlobalConfigSchema,
    templates: { type: 'array', items: secretOrConfigMapSchema, description: 'Notification templates, from Secrets or ConfigMaps.' },
  },
} as const;

/** Alertmanager spec. */
export const alertmanagerSpecSchema = {
  type: 'object',
  description: 'Desired state of an Alertmanager cluster.',
  additionalProperties: false,
  properties: {
    // Essential.
    version: str('Alertmanager version, e.g. 0.35.0 (default: the version promop ships with).'),
    image: str('Container image; overrides version for the image.'),
    replicas: { type: 'integer', minimum: 0, description: 'Pods of the cluster (default 1); more than one form a mesh that deduplicates notifications.' },
    configSecret: str('Secret (key alertmanager.yaml) holding the platform\'s base configuration (default alertmanager-<name>).'),
    alertmanagerConfigSelector: { ...labelSelectorSchema, description: 'AlertmanagerConfigs to merge into the configuration. Absent selects none; {} selects all.' },
    alertmanagerConfigNamespaceSelector: { ...labelSelectorSchema, description: 'Namespaces to take AlertmanagerConfigs from. Absent means the Alertmanager\'s own namespace; {} means all.' },
    alertmanagerConfigMatcherStrategy: matcherStrategySchema,
    alertmanagerConfiguration: alertmanagerConfigurationSchema,
    retention: { ...goDuration('How long to keep the notification log and expired silences.'), default: '120h' },
    storage: storageSpecSchema('Storage of silences and the notification log. Absent means an emptyDir.'),
    serviceAccountName: str('ServiceAccount the pods run as.'),
    resources: embedded('Compute resources of the Alertmanager container (Kubernetes ResourceRequirements).'),
    paused: bool('Stop reconciling this object (the running pods are left alone).'),
    podMetadata: embeddedObjectMetadataSchema,
    nodeSelector: stringMap('Node labels the pods must run on.'),
    tolerations: embeddedList('Tolerations of the pods (Kubernetes Toleration).'),
    affinity: embedded('Affinity of the pods (Kubernetes Affinity).'),
    topologySpreadConstraints: embeddedList('Topology spread constraints of the pods.'),
    securityContext: embedded('Pod security context (Kubernetes PodSecurityContext).'),
    // Common.
    externalUrl: str('URL under which Alertmanager is reachable from outside, used in links of notifications.'),
    routePrefix: str('Path prefix of the HTTP endpoints (default /).'),
    listenLocal: bool('Listen on 127.0.0.1 only.'),
    logLevel: oneOf(['', 'debug', 'info', 'warn', 'error'], 'Log level of Alertmanager.'),
    logFormat: oneOf(['', 'logfmt', 'json'], 'Log format of Alertmanager.'),
    secrets: stringList('Secrets mounted at /etc/alertmanager/secrets/<name>.'),
    configMaps: stringList('ConfigMaps mounted at /etc/alertmanager/configmaps/<name>.'),
    volumes: embeddedList('Extra volumes of the pods (Kubernetes Volume).'),
    volumeMounts: embeddedList('Extra volume mounts of the Alertmanager container (Kubernetes VolumeMount).'),
    containers: embeddedList('Extra containers, or patches of promop\'s containers merged by name (Kubernetes Container).'),
    initContainers: embeddedList('Extra init containers (Kubernetes Container).'),
    imagePullPolicy: oneOf(['', 'Always', 'Never', 'IfNotPresent'], 'Image pull policy of the containers.'),
    imagePullSecrets: embeddedList('Secrets for pulling images (Kubernetes LocalObjectReference).'),
    priorityClassName: str('Priority class of the pods.'),
    portName: { type: 'string', default: 'web', description: 'Name of the Alertmanager web port.' },
    minReadySeconds: count('Seconds a new pod must be ready before it counts as available.'),
    web: embedded('Web server settings (TLS, HTTP headers, getConcurrency, timeout).'),
    limits: {
      type: 'object',
      description: 'Limits on silences.',
      additionalProperties: false,
      properties: {
        maxSilences: count('Most active and pending silences (0: no limit).'),
        maxPerSilenceBytes: byteSize('Largest size of one silence (0: no limit).'),
      },
    },
    enableFeatures: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Alertmanager feature flags (--enable-feature).' },
    additionalArgs: embeddedList('Extra Alertmanager command-line arguments ({name, value}).'),
    // The mesh.
    additionalPeers: stringList('Peers outside this Alertmanager to mesh with (host:port).'),
    clusterAdvertiseAddress: str('Address advertised to the other peers.'),
    clusterGossipInterval: goDuration('Interval between gossip messages.'),
    clusterPushpullInterval: goDuration('Interval between full state syncs.'),
    clusterPeerTimeout: goDuration('How long to wait for a peer to send a notification before sending it.'),
    clusterLabel: str('Label that keeps this cluster apart from others on the same network (default <namespace>/<name>).'),
    clusterTLS: embedded('TLS between the peers (server and client settings).'),
    forceEnableClusterMode: bool('Run the mesh even with one replica.'),
    // Accepted so real manifests apply; passed to the pod template.
    tag: str('Deprecated: image tag.'),
    sha: str('Deprecated: image digest.'),
    baseImage: str('Deprecated: image without tag.'),
    schedulerName: str('Scheduler of the pods.'),
    serviceName: str('Name of an existing governing Service for the StatefulSet.'),
    hostAliases: embeddedList('Extra /etc/hosts entries (Kubernetes HostAlias).'),
    hostNetwork: bool('Use the host network.'),
    hostUsers: bool('Use the host user namespace.'),
    dnsPolicy: oneOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], 'DNS policy of the pods.'),
    dnsConfig: embedded('DNS settings of the pods.'),
    enableServiceLinks: bool('Inject Service environment variables.'),
    automountServiceAccountToken: bool('Mount the ServiceAccount token (default true).'),
    podManagementPolicy: oneOf(['OrderedReady', 'Parallel'], 'StatefulSet pod management policy (default Parallel).'),
    updateStrategy: embedded('StatefulSet update strategy.'),
    persistentVolumeClaimRetentionPolicy: embedded('StatefulSet PVC retention policy.'),
    terminationGracePeriodSeconds: count('Seconds a pod gets to stop (default 120).'),
  },
} as const;

/** Alertmanager status. */
export const alertmanagerStatusSchema = {
  type: 'object',
  description: 'Observed state of the Alertmanager, written by promop.',
  additionalProperties: false,
  properties: {
    paused: { type: 'boolean', description: 'Whether reconciliation is paused.' },
    replicas: count('Pods of the cluster.'),
    updatedReplicas: count('Pods running the latest spec.'),
    availableReplicas: count('Available pods.'),
    unavailableReplicas: count('Unavailable pods.'),
    selector: str('Label selector of the pods (for kubectl scale).'),
    conditions: workloadConditionsSchema,
    configStatus: alertmanagerConfigStatusSchema,
  },
} as const;
