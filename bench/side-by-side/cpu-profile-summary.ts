/**
 * Where a `node --cpu-prof` profile spent its time: the functions with the most self time and the repository
 * files with the most total (inclusive) time, to name the bottleneck behind a slow figure.
 *
 * Run: `node bench/side-by-side/cpu-profile-summary.ts <file.cpuprofile> [--top N]`.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/** Self and inclusive milliseconds per function, and inclusive milliseconds per repository file. */
export function summarizeProfile(profile: Profile): { totalMs: number; self: [string, number][]; files: [string, number][] } {
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const sampleMs = profile.samples.length > 0 ? totalMs / profile.samples.length : 0;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const files = new Map<string, number>();
  const shortUrl = (url: string) => url.replace(/^file:\/\/.*?\/(packages|node_modules|bench|e2e)\//, '$1/');
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const frame = node.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + hits * sampleMs);
    // Inclusive time per file: each file once per stack.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const url = byId.get(id)?.callFrame.url ?? '';
      if (!url.includes('/packages/') || seen.has(url)) continue;
      seen.add(url);
      files.set(shortUrl(url), (files.get(shortUrl(url)) ?? 0) + hits * sampleMs);
    }
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { totalMs, self: sorted(self), files: sorted(files) };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node bench/side-by-side/cpu-profile-summary.ts <file.cpuprofile> [--top N]');
  const topIndex = process.argv.indexOf('--top');
  const top = topIndex >= 0 ? Number(process.argv[topIndex + 1]) : 25;
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const busyMs = summary.self.filter(([name]) => !name.startsWith('(idle)') && !name.startsWith('(program)')).reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`profile of ${(summary.totalMs / 1000).toFixed(1)} s, ${(busyMs / 1000).toFixed(1)} s busy in JavaScript and GC`);
  console.log('\nself time:');
  for (const [name, ms] of summary.self.slice(0, top)) console.log(`${(ms / 1000).toFixed(2).padStart(8)} s  ${name}`);
  console.log('\ninclusive time per promop file:');
  for (const [name, ms] of summary.files.slice(0, top)) console.log(`${(ms / 1000).toFixed(2).padStart(8)} s  ${name}`);
}
