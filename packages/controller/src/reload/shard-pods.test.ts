/** Which pods of a shard promop calls, annotates, or reports as pending. */
import type { V1Pod } from '@kubernetes/client-node';
import { shardSelectorLabels } from '../workload/index.ts';
import { CONFIG_HASH_ANNOTATION, needsConfigHash, podCallability, podsOfShard } from './shard-pods.ts';

function pod(name: string, options: { shard?: number; prometheus?: string; phase?: string; ready?: boolean; ip?: string; deleting?: boolean; hash?: string } = {}): V1Pod {
  return {
    metadata: {
      name,
      labels: shardSelectorLabels(options.prometheus ?? 'main', options.shard ?? 0),
      ...(options.hash ? { annotations: { [CONFIG_HASH_ANNOTATION]: options.hash } } : {}),
      ...(options.deleting ? { deletionTimestamp: new Date() } : {}),
    },
    status: {
      ...(options.phase ? { phase: options.phase } : {}),
      ...(options.ip ? { podIP: options.ip } : {}),
      ...(options.ready === undefined ? {} : { conditions: [{ type: 'Ready', status: options.ready ? 'True' : 'False' }] }),
    },
  };
}

describe('the pods of a shard', () => {
  it('are those with every label of the shard selector, by name', () => {
    const pods = [pod('prometheus-main-1'), pod('prometheus-main-0'), pod('prometheus-main-shard-1-0', { shard: 1 }), pod('prometheus-other-0', { prometheus: 'other' })];
    expect(podsOfShard(pods, 'main', 0).map((p) => p.metadata?.name)).toEqual(['prometheus-main-0', 'prometheus-main-1']);
    expect(podsOfShard(pods, 'main', 1).map((p) => p.metadata?.name)).toEqual(['prometheus-main-shard-1-0']);
  });

  it('are called only when Running, Ready and with an IP; otherwise the reason says why not', () => {
    expect(podCallability(pod('a', { phase: 'Running', ready: true, ip: '10.244.1.5' }))).toEqual({ callable: true, ip: '10.244.1.5' });
    expect(podCallability(pod('a', { phase: 'Pending' }))).toMatchObject({ callable: false, reason: 'NotRunning', message: expect.stringContaining('Pending') });
    expect(podCallability(pod('a', { phase: 'Running', ready: false, ip: '10.244.1.5' }))).toMatchObject({ callable: false, reason: 'NotReady' });
    expect(podCallability(pod('a', { phase: 'Running' }))).toMatchObject({ callable: false, reason: 'NotReady' });
    expect(podCallability(pod('a', { phase: 'Running', ready: true }))).toMatchObject({ callable: false, reason: 'NoPodIP' });
    expect(podCallability(pod('a', { phase: 'Running', ready: true, ip: '10.244.1.5', deleting: true }))).toMatchObject({ callable: false, reason: 'Terminating' });
  });

  it('get the config-hash annotation unless they carry it already or are being deleted; ready or not', () => {
    expect(needsConfigHash(pod('a', { phase: 'Pending' }), 'abc')).toBe(true);
    expect(needsConfigHash(pod('a', { hash: 'old' }), 'abc')).toBe(true);
    expect(needsConfigHash(pod('a', { hash: 'abc' }), 'abc')).toBe(false);
    expect(needsConfigHash(pod('a', { deleting: true }), 'abc')).toBe(false);
  });
});
