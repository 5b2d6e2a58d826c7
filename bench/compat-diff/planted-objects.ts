/**
 * The Secrets and ConfigMaps every case namespace holds: the fuzz suite's planted ones (e2e/fuzz/planted-secrets.ts:
 * Secrets `creds`, `tls` and `fuzz` with the same keys, ConfigMap `ca`), so hand-written and generated objects
 * reference the same names.
 */
import { FUZZ_REFERENCES, PLANTED_SECRET_DATA } from '@promop/e2e/fuzz/planted-secrets';
import { TEST_CERT } from '@promop/config-generator/test-support';

/** Secret names planted in each case namespace (`absent` is left out on purpose). */
export const PLANTED_SECRET_NAMES = FUZZ_REFERENCES.secretNames.filter((name) => name !== 'absent');

/** The data of each planted Secret (decoded text). */
export const PLANTED_DATA: Readonly<Record<string, string>> = PLANTED_SECRET_DATA;

/** ConfigMap `ca`'s data. */
export const PLANTED_CONFIG_MAP_DATA: Readonly<Record<string, string>> = { 'ca.crt': TEST_CERT, garbage: 'not a certificate' };
