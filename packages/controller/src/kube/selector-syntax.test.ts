import { checkFieldSelector, checkLabelSelector, checkNamespaceName } from './selector-syntax.ts';

describe('label selector strings', () => {
  it.each([
    'app=web', 'app==web', 'app!=web', 'app', '!app', 'app in (web,api)', 'app notin (web, api)', 'example.com/team=a', 'version>3', 'version<10',
    'app=', 'a=b,c!=d,!e,f in (g)',
  ])('accepts %s', (selector) => {
    expect(checkLabelSelector(selector)).toEqual({ ok: true });
  });

  it.each([
    ['', 'is empty'],
    ['app=web,', 'has an empty requirement (two commas, or a comma at an end)'],
    ['-app=web', '"-app" is not a label key (at most 63 letters, digits, \'-\', \'_\', \'.\', beginning and ending with a letter or digit, after an optional DNS prefix and \'/\')'],
    ['Example.COM/team=a', 'the prefix "Example.COM" of label key "Example.COM/team" is not a DNS subdomain'],
    ['app in web', '"app in web" is not a requirement (key, !key, key=value, key!=value, key in (a,b), key notin (a,b))'],
    ['version>three', '"version>three": > compares with an integer'],
  ])('refuses %j: %s', (selector, message) => {
    expect(checkLabelSelector(selector)).toEqual({ ok: false, message });
  });
});

describe('field selector strings', () => {
  it.each(['type!=kubernetes.io/dockercfg', 'metadata.name=x,metadata.namespace!=y', 'type==Opaque', 'type!='])('accepts %s', (selector) => {
    expect(checkFieldSelector(selector)).toEqual({ ok: true });
  });

  it.each([
    ['', 'is empty'],
    ['type in (a)', '"type in (a)" is not a requirement (field=value, field==value or field!=value)'],
    ['type=a,', 'has an empty requirement (two commas, or a comma at an end)'],
  ])('refuses %j: %s', (selector, message) => {
    expect(checkFieldSelector(selector)).toEqual({ ok: false, message });
  });
});

describe('namespace names', () => {
  it('are DNS labels', () => {
    expect(checkNamespaceName('team-a')).toEqual({ ok: true });
    expect(checkNamespaceName('a'.repeat(64)).ok).toBe(false);
    expect(checkNamespaceName('team.a').ok).toBe(false);
  });
});
