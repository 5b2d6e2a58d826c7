/**
 * `node e2e/src/images/stage-promop-app.ts <dir>`: stages the promop image's /app into <dir> (see promop-app.ts).
 * The root Dockerfile runs this; the image built without Docker calls stagePromopApp directly.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stagePromopApp } from './promop-app.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const [appDir, ...extra] = process.argv.slice(2);
if (appDir === undefined || extra.length > 0 || appDir.startsWith('-')) {
  process.stderr.write('Usage: node e2e/src/images/stage-promop-app.ts <dir>   (the directory must not exist)\n');
  process.exit(2);
}
await stagePromopApp(repoRoot, appDir);
