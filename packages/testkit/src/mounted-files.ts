/**
 * The files a kubelet would mount into a pod, for tests that run the program on this machine instead: a file of the
 * operator's (web config, cluster TLS) names TLS material by in-pod paths, which the test puts below a root of its
 * own and moves the file's paths there.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Copies each of `files` (in-pod path → a file on this machine) to the same path below `root`, and returns `text`
 * with every path below `podDir` moved below `root`.
 */
export function mountBelowRoot(root: string, podDir: string, text: string, files: Readonly<Record<string, string>>): string {
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), readFileSync(source));
  }
  return text.replaceAll(podDir, join(root, podDir));
}
