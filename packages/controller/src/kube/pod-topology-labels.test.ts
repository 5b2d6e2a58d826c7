import { labelsPodsWithZone, podTopologyLabelsReader } from './pod-topology-labels.ts';

describe('whether the cluster labels pods with their zone', () => {
  it('is Kubernetes 1.35 or later, read from major/minor (managed clusters add "+") or else gitVersion', () => {
    expect(labelsPodsWithZone({ major: '1', minor: '35' })).toBe(true);
    expect(labelsPodsWithZone({ major: '1', minor: '37', gitVersion: 'v1.37.2' })).toBe(true);
    expect(labelsPodsWithZone({ major: '1', minor: '34+' })).toBe(false);
    expect(labelsPodsWithZone({ major: '1', minor: '35+' })).toBe(true);
    expect(labelsPodsWithZone({ major: '2', minor: '0' })).toBe(true);
    expect(labelsPodsWithZone({ major: '', minor: '', gitVersion: 'v1.36.1-gke.100' })).toBe(true);
    expect(labelsPodsWithZone({ gitVersion: 'v1.30.0' })).toBe(false);
    expect(labelsPodsWithZone({})).toBe(false);
  });

  it('asks the API server once, and again after a failure, which rejects (the reconcile is retried, no form guessed)', async () => {
    const answers: Array<() => Promise<{ major: string; minor: string }>> = [
      () => Promise.reject(new Error('connection refused')),
      () => Promise.resolve({ major: '1', minor: '37' }),
    ];
    let asked = 0;
    const read = podTopologyLabelsReader(() => answers[asked++]!());
    await expect(read()).rejects.toThrow(/could not read the Kubernetes version.*connection refused/);
    expect(await read()).toBe(true);
    expect(await read()).toBe(true);
    expect(asked).toBe(2);
  });
});
