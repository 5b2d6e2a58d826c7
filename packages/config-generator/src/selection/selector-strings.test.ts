/**
 * The two selector grammars Prometheus applies to Kubernetes discovery selectors, read as apimachinery reads
 * them. kubernetes-sd-selectors.differential.test.ts compares the same strings with the real promtool; these
 * cases pin what each string means.
 */
import { parseFieldSelectorString } from './field-selector-string.ts';
import { parseLabelSelectorString } from './label-selector-string.ts';

describe('a label selector string, read as apimachinery labels.Parse reads it', () => {
  it.each([
    ['', []],
    ['   ', []],
    ['app', [{ key: 'app', operator: 'exists', values: [] }]],
    ['!app', [{ key: 'app', operator: '!', values: [] }]],
    ['app=web', [{ key: 'app', operator: '=', values: ['web'] }]],
    ['app==web', [{ key: 'app', operator: '==', values: ['web'] }]],
    ['app!=web', [{ key: 'app', operator: '!=', values: ['web'] }]],
    ['app=', [{ key: 'app', operator: '=', values: [''] }]],
    ['app in (web, api,web)', [{ key: 'app', operator: 'in', values: ['api', 'web'] }]],
    ['app notin ()', [{ key: 'app', operator: 'notin', values: [''] }]],
    ['app in (,web)', [{ key: 'app', operator: 'in', values: ['', 'web'] }]],
    ['app in (in, notin)', [{ key: 'app', operator: 'in', values: ['in', 'notin'] }]],
    ['in in (in)', [{ key: 'in', operator: 'in', values: ['in'] }]],
    ['replicas>3', [{ key: 'replicas', operator: 'gt', values: ['3'] }]],
    ['replicas < 10', [{ key: 'replicas', operator: 'lt', values: ['10'] }]],
    ['tier=web,example.com/team in (a),!canary', [
      { key: 'canary', operator: '!', values: [] },
      { key: 'example.com/team', operator: 'in', values: ['a'] },
      { key: 'tier', operator: '=', values: ['web'] },
    ]],
    ['\tapp = web\n', [{ key: 'app', operator: '=', values: ['web'] }]],
  ])('%j is accepted', (text, requirements) => {
    expect(parseLabelSelectorString(text)).toEqual({ ok: true, requirements });
  });

  it.each([
    ['app in (web', /expected "," or "\)"/],
    ['app in web', /expected "\(" to open/],
    ['app in', /found the end, expected "\("/],
    ['app=web,', /after ","/],
    [',app', /expected "!", a label key or the end/],
    ['app web', /expected one of =, ==, !=/],
    ['app=!web', /expected a value/],
    ['!app=web', /found "=", expected "," or the end/],
    ['!', /expected a label key/],
    ['app in (web api)', /expected "," or "\)"/],
    ['app>=3', /expected a value/],
    ['app>x', /not a 64-bit integer/],
    ['app>', /not a 64-bit integer/],
    ['app>99999999999999999999', /not a 64-bit integer/],
    ['app>-1', /not a valid value/],
    ['-app', /not a valid label key/],
    ['app.', /not a valid label key/],
    ['Example.com/app', /not a valid label key/],
    ['a/b/c', /not a valid label key/],
    ['/app', /not a valid label key/],
    [`${'a'.repeat(64)}=x`, /not a valid label key/],
    [`app=${'v'.repeat(64)}`, /not a valid value/],
    ['app=web!', /expected "," or the end/],
    ['app=we b', /expected "," or the end/],
    ['app=ünï', /not a valid value/],
    ['app=a*', /not a valid value/],
    ['app in (a,b*)', /not a valid value/],
  ])('%j is refused', (text, reason) => {
    const parsed = parseLabelSelectorString(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('stops at a NUL byte that starts a token, as the Go lexer does', () => {
    expect(parseLabelSelectorString('app=web \u0000 garbage ((')).toEqual({ ok: true, requirements: [{ key: 'app', operator: '=', values: ['web'] }] });
  });
});

describe('a field selector string, read as apimachinery fields.ParseSelector reads it', () => {
  it.each([
    ['', []],
    [',', []],
    ['status.phase=Running', [{ field: 'status.phase', operator: '=', value: 'Running' }]],
    ['status.phase==Running', [{ field: 'status.phase', operator: '==', value: 'Running' }]],
    ['spec.nodeName!=node-1', [{ field: 'spec.nodeName', operator: '!=', value: 'node-1' }]],
    ['metadata.name=', [{ field: 'metadata.name', operator: '=', value: '' }]],
    ['=', [{ field: '', operator: '=', value: '' }]],
    ['metadata.name=a\\,b\\=c\\\\d', [{ field: 'metadata.name', operator: '=', value: 'a,b=c\\d' }]],
    ['a=!b', [{ field: 'a', operator: '=', value: '!b' }]],
    ['b=2,,a=1', [{ field: 'a', operator: '=', value: '1' }, { field: 'b', operator: '=', value: '2' }]],
    ['any field at all=a value with spaces', [{ field: 'any field at all', operator: '=', value: 'a value with spaces' }]],
  ])('%j is accepted', (text, terms) => {
    expect(parseFieldSelectorString(text)).toEqual({ ok: true, terms });
  });

  it.each([
    ['status.phase', /not a term of a field selector/],
    ['status.phase=Running,spec.nodeName', /"spec.nodeName" is not a term/],
    ['a=b=c', /"=" in the value "b=c" must be escaped/],
    ['a=b\\', /lone backslash/],
    ['a=b\\n', /"\\n" is not an escape sequence/],
    ['a==b=c', /must be escaped/],
    ['a!==b', /must be escaped/],
  ])('%j is refused', (text, reason) => {
    const parsed = parseFieldSelectorString(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});
