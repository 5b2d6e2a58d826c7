import { redactAlertmanagerSecrets } from './alertmanager-secret-redaction.ts';

const MARKER = 'marker-Qv7';

describe('an alertmanager.yaml printed by promop diff', () => {
  it('shows every field Alertmanager treats as a secret as <redacted>, in any YAML style, and keeps the rest', () => {
    const text = [
      'global:',
      `  smtp_auth_password: "${MARKER}-smtp"`,
      `  slack_api_url: '${MARKER}-slack'`,
      'receivers:',
      '- name: team',
      `  webhook_configs: [{url: "http://hooks/${MARKER}", send_resolved: true}]`,
      '  pushover_configs:',
      '  - url: http://pushover.example/shown',
      `    token: ${MARKER}-token`,
      '  http_config:',
      '    basic_auth: {username: alice}',
      '    proxy_connect_header:',
      `      X-Auth: [${MARKER}-header]`,
      '    tls_config:',
      '      key: |',
      `        ${MARKER}-key`,
      '      insecure_skip_verify: false',
      `  other: &shared ${MARKER}-aliased`,
      '  bearer_token: *shared',
      '',
    ].join('\n');
    const redacted = redactAlertmanagerSecrets(text);
    expect(redacted).not.toContain(MARKER);
    expect(redacted).toContain('  smtp_auth_password: "<redacted>"\n');
    expect(redacted).toContain('  webhook_configs: [{url: "<redacted>", send_resolved: true}]\n');
    expect(redacted).toContain('  - url: http://pushover.example/shown\n');
    expect(redacted).toContain('      X-Auth: [<redacted>]\n');
    expect(redacted).toContain('      key: |\n        <redacted>\n      insecure_skip_verify: false\n');
    expect(redacted).toContain('    basic_auth: {username: alice}\n');
  });

  it('shows nothing of a text that is not YAML', () => {
    expect(redactAlertmanagerSecrets(`route: [${MARKER}`)).toBe('<redacted>\n');
  });
});
