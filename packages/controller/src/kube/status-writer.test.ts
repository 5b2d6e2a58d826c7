/**
 * The status writer on prometheus-operator's CRDs, which do not declare promop's extra status fields: server-side
 * apply refuses them (a 500 naming the field) instead of pruning, so the writer drops the named promop-only field,
 * writes again, and leaves it out of every later write of that kind. Any other refusal is thrown as before. The
 * takeover end-to-end test (e2e/src/takeover.test.ts, side by side) runs the same against the real API server.
 */
import { ApiException } from '@kubernetes/client-node';
import { RawApi } from './raw-api.ts';
import { StatusWriter } from './status-writer.ts';

function refusal(field: string): ApiException<object> {
  const message = `failed to create typed patch object (team-a/checkout; monitoring.coreos.com/v1, Kind=ServiceMonitor): .status.${field}: field not declared in schema`;
  return new ApiException(500, 'HTTP 500', { kind: 'Status', code: 500, message }, {});
}

/** A RawApi whose CRD declares only `declared` under status: what each apply sent, and the refusals. */
function apiDeclaring(declared: readonly string[]) {
  const sent: string[][] = [];
  const api = Object.assign(Object.create(RawApi.prototype) as RawApi, {
    patch: async (_path: string, body: { status: Record<string, unknown> }) => {
      const fields = Object.keys(body.status);
      sent.push(fields);
      const undeclared = fields.find((field) => !declared.includes(field));
      if (undeclared) throw refusal(undeclared);
      return { metadata: { resourceVersion: String(sent.length) } };
    },
  });
  return { api, sent };
}

const TARGET = { kind: 'ServiceMonitor' as const, namespace: 'team-a', name: 'checkout' };

describe('status writes on CRDs that do not declare promop\'s extra status fields', () => {
  it('drop acceptedBy and rejectedBy once each, then leave them out of every later write of the kind', async () => {
    const { api, sent } = apiDeclaring(['bindings']);
    const writer = new StatusWriter(api);
    await expect(writer.apply(TARGET, { bindings: [], acceptedBy: 1, rejectedBy: 0 })).resolves.toEqual({ resourceVersion: '3' });
    expect(sent).toEqual([['bindings', 'acceptedBy', 'rejectedBy'], ['bindings', 'rejectedBy'], ['bindings']]);
    await writer.apply({ ...TARGET, name: 'other' }, { bindings: [], acceptedBy: 0, rejectedBy: 1 });
    expect(sent.at(-1)).toEqual(['bindings']);
    expect(sent).toHaveLength(4);
  });

  it('write them where the CRD declares them (promop\'s own)', async () => {
    const { api, sent } = apiDeclaring(['bindings', 'acceptedBy', 'rejectedBy']);
    await new StatusWriter(api).apply(TARGET, { bindings: [], acceptedBy: 1, rejectedBy: 0 });
    expect(sent).toEqual([['bindings', 'acceptedBy', 'rejectedBy']]);
  });

  it('throw a refusal of any other field: a field promop needs is not dropped silently', async () => {
    const { api } = apiDeclaring(['acceptedBy']);
    await expect(new StatusWriter(api).apply(TARGET, { bindings: [], acceptedBy: 1 })).rejects.toThrow();
  });
});
