/**
 * The Secrets and ConfigMaps every fuzz case can reference, in every namespace its objects live in. Each Secret
 * value carries SECRET_MARKER (or, for the PEM key, is recognised by its body lines), so a value that leaks into a
 * verdict, problem, warning or rule file is found by a plain text search.
 */
import type { KeyValueSource } from '@promop/config-generator';
import { TEST_CERT, TEST_KEY } from '@promop/config-generator/test-support';
import { FUZZ_NAMESPACES, type ReferencePool } from './schema-arbitrary.ts';

/** Present in every planted Secret value except the certificates and the private key. */
export const SECRET_MARKER = 'fuzzSECRETq7x';

const M = SECRET_MARKER;

/**
 * The data of every planted Secret. Keys named like the ones monitor-arbitraries.ts references (`user`,
 * `password`, `tls.key`...) so its hand-written monitors find them too; values that are well formed where the
 * generator parses them, and many that are not (YAML the parser refuses in every way it can, with the marker
 * where a parser error would quote it).
 */
export const PLANTED_SECRET_DATA: Readonly<Record<string, string>> = {
  user: `u-${M}-1`,
  password: `p-${M}-2`,
  token: `t-${M}-3`,
  'client-id': `c-${M}-4`,
  'client-secret': `cs-${M}-5`,
  header: `Basic ${M}-6`,
  multiline: `m-${M}-7\nsecond line ${M}-7b\n`,
  spaces: `  ${M}-8  `,
  huge: `${M}-9${'z'.repeat(20_000)}`,
  empty: '',
  'ca.crt': TEST_CERT,
  'tls.crt': TEST_CERT,
  'tls.key': TEST_KEY,
  garbage: `garbage ${M}-10`,
  'scrape-configs': `- job_name: extra\n  basic_auth:\n    username: x\n    password: ${M}-11\n  static_configs:\n  - targets: ['a:1']\n`,
  'relabel-configs': `- action: drop\n  source_labels: [x]\n  regex: ${M}-12\n`,
  'alertmanager-configs': `- static_configs:\n  - targets: ['am:9093']\n  basic_auth: {username: u, password: ${M}-13}\n`,
  'yaml-bad-tag': `- !<!${M}-14> {a: 1}\n`,
  'yaml-bad-alias': `- *${M}-15\n`,
  'yaml-duplicate-key': `- ${M}-16: 1\n  ${M}-16: 2\n`,
  'yaml-bad-escape': `- a: "\\q${M}-17"\n`,
  'yaml-unclosed': `- a: [${M}-18\n`,
  'yaml-scalar': `${M}-19`,
  'yaml-list-of-scalars': `- ${M}-20\n`,
  'yaml-bad-indent': `- a: 1\n b: ${M}-21\n`,
  'yaml-tab': `- a:\n\t${M}-22\n`,
};

/** The body lines of the private key: a leak of the key shows up as one of them. */
const KEY_LINES = TEST_KEY.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));

/** The names the generated references use: three that exist in every namespace and one that does not. */
export const FUZZ_REFERENCES: ReferencePool = {
  secretNames: ['creds', 'tls', 'fuzz', 'absent'],
  secretKeys: [...Object.keys(PLANTED_SECRET_DATA), 'nope'],
  configMapNames: ['ca', 'absent-cm'],
  configMapKeys: ['ca.crt', 'garbage', 'nope'],
};

/** Namespaces of the fuzzed objects: the schema arbitrary's, and the ones monitor-arbitraries.ts uses. */
export const ALL_FUZZ_NAMESPACES = [...FUZZ_NAMESPACES, 'default', 'team'];

/** The planted Secrets, every name of FUZZ_REFERENCES but `absent`, in every namespace. */
export const PLANTED_SECRETS: KeyValueSource[] = ALL_FUZZ_NAMESPACES.flatMap((namespace) =>
  FUZZ_REFERENCES.secretNames.filter((name) => name !== 'absent').map((name) => ({ namespace, name, data: { ...PLANTED_SECRET_DATA } })),
);

/** The planted ConfigMaps (not secret: a CA certificate and some garbage). */
export const PLANTED_CONFIG_MAPS: KeyValueSource[] = ALL_FUZZ_NAMESPACES.map((namespace) => ({ namespace, name: 'ca', data: { 'ca.crt': TEST_CERT, garbage: 'not a certificate' } }));

/** The first planted Secret value found in `text` (the marker or a line of the private key), or undefined. */
export function leakedSecretIn(text: string): string | undefined {
  if (text.includes(SECRET_MARKER)) {
    const at = text.indexOf(SECRET_MARKER);
    return text.slice(Math.max(0, at - 40), at + 40);
  }
  return KEY_LINES.find((line) => text.includes(line));
}
