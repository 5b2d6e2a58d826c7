import { sharedRule } from './shared-rules.ts';
import { copyMetaLabel, keepMatching, setLabel } from './meta-relabelings.ts';
import { shardingRelabelings } from './sharding.ts';

describe('shared relabelings', () => {
  it('are one object per set of arguments', () => {
    expect(copyMetaLabel('__meta_kubernetes_namespace', 'namespace')).toBe(copyMetaLabel('__meta_kubernetes_namespace', 'namespace'));
    expect(copyMetaLabel('__meta_kubernetes_namespace', 'namespace')).not.toBe(copyMetaLabel('__meta_kubernetes_namespace', 'ns'));
    // A port given by number and one given by name are different rules, though they print alike.
    expect(keepMatching('__meta_kubernetes_pod_container_port_number', 8080)).not.toBe(keepMatching('__meta_kubernetes_pod_container_port_number', '8080'));
    expect(keepMatching('__meta_kubernetes_pod_container_port_number', 8080).regex).toBe(8080);
    expect(shardingRelabelings(2, 1)).toEqual(shardingRelabelings(2, 1));
    expect(shardingRelabelings(2, 1)[2]).not.toBe(shardingRelabelings(2, 0)[2]);
    expect(shardingRelabelings(3, 0)[1]).toEqual({ source_labels: ['__tmp_hash'], target_label: '__tmp_hash', modulus: 3, action: 'hashmod' });
  });

  it('are deep-frozen, so no job can change the rule every other job shares', () => {
    const rule = setLabel('endpoint', 'web');
    expect(() => { (rule as { replacement: string }).replacement = 'other'; }).toThrow(TypeError);
    const copy = copyMetaLabel('__meta_kubernetes_pod_name', 'pod');
    expect(() => (copy.source_labels as string[]).push('x')).toThrow(TypeError);
    expect(copy).toEqual({ source_labels: ['__meta_kubernetes_pod_name'], target_label: 'pod' });
  });

  it('are made by their key alone', () => {
    let made = 0;
    const make = () => ({ made: ++made });
    expect(sharedRule('test-only-key', make)).toBe(sharedRule('test-only-key', make));
    expect(made).toBe(1);
  });
});
