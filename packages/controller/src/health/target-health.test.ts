import { monitorOfScrapePool, NO_TARGETS, summariseTargets, targetsCondition, targetsOf, type ActiveTarget } from './target-health.ts';

const target = (scrapePool: string, health: string, lastError = ''): ActiveTarget => ({ scrapePool, health, lastError });

describe('scrape pools', () => {
  it('name the object promop rendered them for', () => {
    expect(monitorOfScrapePool('serviceMonitor/team-a/api/0')).toBe('ServiceMonitor/team-a/api');
    expect(monitorOfScrapePool('serviceMonitor/team-a/api/12')).toBe('ServiceMonitor/team-a/api');
    expect(monitorOfScrapePool('podMonitor/team-b/web/1')).toBe('PodMonitor/team-b/web');
    expect(monitorOfScrapePool('probe/team-a/site')).toBe('Probe/team-a/site');
    expect(monitorOfScrapePool('scrapeConfig/team-b/static')).toBe('ScrapeConfig/team-b/static');
  });

  it('of another form belong to no object', () => {
    for (const pool of ['prometheus', 'serviceMonitor/team-a/api', 'serviceMonitor/team-a/api/x', 'probe/team-a/site/0', 'scrapeConfig//x', 'other/team-a/x']) {
      expect(monitorOfScrapePool(pool)).toBeUndefined();
    }
  });
});

describe('the targets of a monitor, summed over shards', () => {
  it('counts up, down and unknown targets of each object alone', () => {
    const shard0 = { activeTargets: [target('serviceMonitor/team-a/api/0', 'up'), target('serviceMonitor/team-a/api/1', 'unknown'), target('scrapeConfig/team-b/s', 'down', 'Get "http://10.0.0.7:80/metrics": EOF')] };
    const shard1 = { activeTargets: [target('serviceMonitor/team-a/api/0', 'up'), target('prometheus', 'down', 'platform error')] };
    const { summaries, notScrapedYet } = summariseTargets([shard0, shard1]);
    expect(notScrapedYet.size).toBe(0);
    expect(summaries.get('ServiceMonitor/team-a/api')).toEqual({ active: 3, up: 2, down: 0, unknown: 1 });
    expect(summaries.get('ScrapeConfig/team-b/s')).toEqual({ active: 1, up: 0, down: 1, unknown: 0, lastError: 'Get "http://10.0.0.7:80/metrics": EOF', lastErrorCount: 1 });
    expect([...summaries.keys()].sort()).toEqual(['ScrapeConfig/team-b/s', 'ServiceMonitor/team-a/api']);
  });

  it('never gives one team\'s object another team\'s target errors', () => {
    const { summaries } = summariseTargets([{ activeTargets: [
      target('serviceMonitor/team-a/api/0', 'up'),
      target('serviceMonitor/team-b/api/0', 'down', 'Get "http://team-b-secret-host:80/x?key=k": refused'),
    ] }]);
    expect(JSON.stringify(summaries.get('ServiceMonitor/team-a/api'))).not.toContain('team-b');
    expect(summaries.get('ServiceMonitor/team-b/api')?.lastError).toBe('Get "http://team-b-secret-host:80/x?key=<redacted>": refused');
  });

  it('reports the most frequent kind of error, redacted, with its count and a stable example', () => {
    const refused = (ip: string) => `Get "http://user:pw@${ip}:8080/metrics?token=t0p": dial tcp ${ip}:8080: connect: connection refused`;
    const pool = 'podMonitor/team-a/web/0';
    const targets = [
      target(pool, 'down', refused('10.0.0.9')), target(pool, 'down', refused('10.0.0.3')), target(pool, 'down', 'context deadline exceeded'),
      target(pool, 'up'),
    ];
    const forward = summariseTargets([{ activeTargets: targets }]).summaries.get('PodMonitor/team-a/web');
    const backward = summariseTargets([{ activeTargets: [...targets].reverse() }]).summaries.get('PodMonitor/team-a/web');
    expect(forward).toEqual({ active: 4, up: 1, down: 3, unknown: 0, lastErrorCount: 2,
      lastError: 'Get "http://10.0.0.3:8080/metrics?token=<redacted>": dial tcp 10.0.0.3:8080: connect: connection refused' });
    expect(backward).toEqual(forward);
  });

  it('gives no summary of an object none of whose targets was scraped yet, on any shard: nothing is known of it', () => {
    const fresh = summariseTargets([{ activeTargets: [target('serviceMonitor/team-a/api/0', 'unknown')] }, { activeTargets: [target('serviceMonitor/team-a/api/0', 'unknown')] }]);
    expect([...fresh.notScrapedYet]).toEqual(['ServiceMonitor/team-a/api']);
    expect(fresh.summaries.size).toBe(0);
    expect(targetsOf(fresh, 'ServiceMonitor/team-a/api')).toBeUndefined();
    expect(targetsOf(fresh, 'ServiceMonitor/team-a/other')).toEqual(NO_TARGETS);
    const half = summariseTargets([{ activeTargets: [target('serviceMonitor/team-a/api/0', 'unknown')] }, { activeTargets: [target('serviceMonitor/team-a/api/0', 'down', 'EOF')] }]);
    expect(half.notScrapedYet.size).toBe(0);
    expect(half.summaries.get('ServiceMonitor/team-a/api')).toEqual({ active: 2, up: 0, down: 1, unknown: 1, lastError: 'EOF', lastErrorCount: 1 });
  });
});

describe('the Healthy condition of a monitor', () => {
  it('is TargetsUp when none is down, TargetsDown when some or all are, NoTargets without any', () => {
    expect(targetsCondition({ active: 2, up: 1, down: 0, unknown: 1 })).toEqual({ status: 'True', reason: 'TargetsUp', message: '1/2 up, 1 not scraped yet' });
    expect(targetsCondition({ active: 3, up: 2, down: 1, unknown: 0, lastError: 'EOF', lastErrorCount: 1 })).toEqual({ status: 'False', reason: 'TargetsDown', message: '1 of 3 down (2/3 up); 1 with: EOF' });
    expect(targetsCondition({ active: 1, up: 0, down: 1, unknown: 0 })).toMatchObject({ status: 'False', reason: 'TargetsDown', message: 'all 1 down (0/1 up)' });
    expect(targetsCondition({ active: 0, up: 0, down: 0, unknown: 0 })).toMatchObject({ status: 'False', reason: 'NoTargets' });
  });
});
