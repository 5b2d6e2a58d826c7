import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPromtool } from '@promop/testkit';
import { goUrlHostError } from './go-url.ts';

// Each URL with promop's verdict; the last test asks the real promtool about every one as a proxy_url.
const CASES: [string, string | undefined][] = [
  ['http://proxy:3128', undefined],
  ['socks5://[::1]:1080', undefined],
  ['http://!', undefined],
  ['https://*', undefined],
  ['http://%c3%bc', undefined],
  ['http://h:80/?q=1 2', undefined],
  ['http:// _', 'invalid character " " in host name'],
  ['http://a^b', 'invalid character "^" in host name'],
  ['http://a:b', 'invalid port ":b" after host'],
  ['http://user:p w@h:1/', 'net/url: invalid userinfo'],
  ['http://%41', 'invalid character "%" in host name'],
];

describe('a proxy URL as Go reads it', () => {
  it.each(CASES)('%s: %s', (url, expected) => {
    expect(goUrlHostError(url)).toBe(expected);
  });

  it('is refused exactly when promtool refuses it as a proxy_url', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'go-url-'));
    try {
      for (const [url, expected] of CASES) {
        const file = join(dir, 'config.yaml');
        writeFileSync(file, `scrape_configs:\n- job_name: a\n  proxy_url: ${JSON.stringify(url)}\n  static_configs:\n  - targets: ['a:1']\n`);
        const result = await runPromtool(['check', 'config', '--syntax-only', file]);
        expect({ url, refused: result.code !== 0 }).toEqual({ url, refused: expected !== undefined });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
