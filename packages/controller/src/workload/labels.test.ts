import { managedByLabels, shardSelectorLabels } from './labels.ts';

describe('labels', () => {
  it('selects a shard with prometheus-operator\'s keys and says promop manages it', () => {
    expect(shardSelectorLabels('main', 2)).toEqual({
      'app.kubernetes.io/instance': 'main',
      'app.kubernetes.io/managed-by': 'promop',
      'app.kubernetes.io/name': 'prometheus',
      'operator.prometheus.io/name': 'main',
      'operator.prometheus.io/shard': '2',
      prometheus: 'main',
    });
  });

  it('gives each shard a different selector, so shards never adopt each other\'s pods', () => {
    expect(shardSelectorLabels('main', 0)).not.toEqual(shardSelectorLabels('main', 1));
  });

  it('marks every object with both managed-by keys', () => {
    expect(managedByLabels()).toEqual({ 'managed-by': 'promop', 'app.kubernetes.io/managed-by': 'promop' });
  });
});
