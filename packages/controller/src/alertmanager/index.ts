/** What outside the controller (bench/compat-diff) reads of an Alertmanager's children: its StatefulSet and TLS files. */
export { alertmanagerArgs, buildAlertmanagerStatefulSet } from './alertmanager-children.ts';
export { alertmanagerTlsOf, CLUSTER_TLS_FILE_NAME, type AlertmanagerTls } from './alertmanager-tls.ts';
