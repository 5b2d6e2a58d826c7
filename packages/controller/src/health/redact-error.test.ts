import { countBucket } from './count-buckets.ts';
import { ERROR_TEXT_LIMIT, errorKind, redactError } from './redact-error.ts';

describe('a scrape error that carries the target URL', () => {
  it('loses the URL user info, keeping scheme, host and path', () => {
    const text = 'Get "https://alice:s3cret@10.0.0.5:8443/metrics": dial tcp 10.0.0.5:8443: connect: connection refused';
    expect(redactError(text)).toBe('Get "https://10.0.0.5:8443/metrics": dial tcp 10.0.0.5:8443: connect: connection refused');
  });

  it('loses the user when Go already masked the password (user:***@)', () => {
    expect(redactError('Get "http://bob:***@svc:9100/metrics": EOF')).toBe('Get "http://svc:9100/metrics": EOF');
  });

  it('keeps the query parameter names and replaces their values', () => {
    const text = 'Get "http://10.0.0.5:8080/probe?module=http_2xx&target=https%3A%2F%2Fx&api_key=abc123#frag": context deadline exceeded';
    // A credential-named parameter takes what follows its value up to the quote with it (a fragment too).
    expect(redactError(text)).toBe('Get "http://10.0.0.5:8080/probe?module=<redacted>&target=<redacted>&api_key=<redacted>": context deadline exceeded');
  });

  it('replaces header and credential values', () => {
    expect(redactError('server said: Authorization: Bearer eyJhbGciOi.payload.sig rejected')).not.toContain('eyJhbGciOi');
    expect(redactError('X-Api-Token=abcd1234 invalid')).toBe('X-Api-Token=<redacted> invalid');
    expect(redactError('bad password: hunter2; retry')).toBe('bad password: <redacted>; retry');
    expect(redactError('upstream sent Basic dXNlcjpwYXNzd29yZA==')).toBe('upstream sent Basic <redacted>');
  });

  it('is idempotent, one line, and bounded', () => {
    const text = 'Get "http://u:p@h:1/m?a=1&b=2":\n  token=xyz Authorization: Basic Zm9vOmJhcg==';
    const once = redactError(text);
    expect(once).not.toMatch(/\n|xyz|Zm9vOmJhcg|u:p@|a=1|b=2/);
    expect(redactError(once)).toBe(once);
    expect(redactError('x'.repeat(5000))).toHaveLength(ERROR_TEXT_LIMIT);
  });

  it('leaves an error without credentials as it is', () => {
    const text = 'server returned HTTP status 503 Service Unavailable';
    expect(redactError(text)).toBe(text);
  });
});

describe('the kind of an error', () => {
  it('is the same for the same failure of different targets', () => {
    const a = redactError('Get "http://10.0.0.5:8080/metrics": dial tcp 10.0.0.5:8080: connect: connection refused');
    const b = redactError('Get "http://10.0.0.6:8081/metrics": dial tcp 10.0.0.6:8081: connect: connection refused');
    expect(errorKind(a)).toBe(errorKind(b));
    expect(errorKind(a)).not.toBe(errorKind(redactError('Get "http://10.0.0.5:8080/metrics": context deadline exceeded')));
  });
});

describe('count buckets', () => {
  it('are exact below 10, then [10, 16) and powers of two', () => {
    expect([0, 1, 9].map(countBucket)).toEqual([0, 1, 9]);
    expect([10, 15].map(countBucket)).toEqual([10, 10]);
    expect([16, 31, 32, 63, 64, 1000].map(countBucket)).toEqual([16, 16, 32, 32, 64, 512]);
  });
});
