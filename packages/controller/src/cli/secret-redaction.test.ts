import type { KeyValueSource } from '@promop/config-generator';
import { REDACTED, redactSecretValues, secretValues } from './secret-redaction.ts';

describe('the Secret values to redact', () => {
  it('are the distinct non-empty single-line values, longest first', () => {
    const secrets: KeyValueSource[] = [
      { namespace: 'a', name: 's1', data: { user: 'bob', password: 'hunter2', empty: '' } },
      { namespace: 'b', name: 's2', data: { same: 'hunter2', pem: '-----BEGIN X-----\nAAAA\n-----END X-----\n' } },
    ];
    expect(secretValues(secrets)).toEqual(['hunter2', 'bob']);
  });
});

describe('redacting a printed configuration', () => {
  it('replaces plain, double-quoted and single-quoted scalars, as mapping values and list items', () => {
    // YAML writes the value `it's: secret` as "it's: secret" or as 'it''s: secret'.
    const text = ['basic_auth:', '  username: bob', `  password: "it's: secret"`, 'headers:', `  - 'it''s: secret'`, '  - bob  '].join('\n');
    expect(redactSecretValues(text, ["it's: secret", 'bob'])).toBe(
      ['basic_auth:', `  username: ${REDACTED}`, `  password: ${REDACTED}`, 'headers:', `  - ${REDACTED}`, `  - ${REDACTED}`].join('\n'),
    );
  });

  it('leaves a value that only occurs inside a longer scalar', () => {
    const text = 'job_name: serviceMonitor/monitoring/web/0\nregex: web\n';
    expect(redactSecretValues(text, ['web', 'monitoring'])).toBe(`job_name: serviceMonitor/monitoring/web/0\nregex: ${REDACTED}\n`);
  });

  it('treats regular expression characters in a value literally', () => {
    expect(redactSecretValues('password: a.b\nother: axb\n', ['a.b'])).toBe(`password: ${REDACTED}\nother: axb\n`);
  });
});
