/** Opening the cluster for the commands that read it (`explain`, `diff`), and their read errors in words. */
import type { Kind } from '@promop/crds/kinds';
import { flagValue, type ParsedCommandLine } from './command-line.ts';
import { KubeReader, KubeReadError } from './kube-reader.ts';
import { KubeconfigError, loadClusterConnection, type ClusterConnection } from '../kube/kubeconfig.ts';
import { PROMETHEUS_SOURCE_KINDS } from './program-kinds.ts';

/** The reader of the cluster the flags (`--kubeconfig`, `--context`) and the environment name, or why not. */
export async function openCluster(line: ParsedCommandLine): Promise<{ ok: true; reader: KubeReader; connection: ClusterConnection } | { ok: false; message: string }> {
  try {
    const connection = await loadClusterConnection({ kubeconfig: flagValue(line, 'kubeconfig'), context: flagValue(line, 'context') });
    return { ok: true, reader: new KubeReader(connection), connection };
  } catch (error) {
    if (error instanceof KubeconfigError) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * A failed read as a sentence saying what to do. The commands list every object of the `kinds` they read and every
 * namespace of the cluster (selection depends on all of them), so their RBAC needs are named when a list is refused.
 * Anything but a read error is a bug and is thrown again.
 */
export function describeReadError(error: unknown, connection: ClusterConnection, kinds: readonly Kind[] = PROMETHEUS_SOURCE_KINDS): string {
  if (error instanceof KubeconfigError) return error.message;
  if (!(error instanceof KubeReadError)) throw error;
  const what = error.path.replace(/\?.*$/, '');
  if (error.status === 0) return `${error.message} (${connection.source})`;
  if (error.status === 401) return `the API server at ${connection.server} does not accept the credentials of ${connection.source} (401): ${error.message}`;
  if (error.status === 403) {
    const listed = [...kinds, 'Namespace'];
    return `${error.message} (403). promop reads every ${listed.slice(0, -1).join(', ')} and ${listed.at(-1)} of the cluster: it needs list on them cluster-wide, and get on the Secrets and ConfigMaps they reference`;
  }
  if (error.status === 404 && what.startsWith('/apis/monitoring.coreos.com/')) {
    return `the cluster does not serve ${what} (404): are the monitoring.coreos.com CRDs installed (kubectl apply -f crds/)?`;
  }
  return `GET ${what}: ${error.message} (${error.status}${error.reason ? ` ${error.reason}` : ''})`;
}
