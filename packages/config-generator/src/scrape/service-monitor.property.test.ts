/**
 * Property: for any ServiceMonitor a user can write (valid or not), rendering either yields
 * scrape configs the real promtool accepts, or rejects the monitor with reasons — never an
 * exception. The generated configs are checked in a few batched promtool runs.
 */
import { renderServiceMonitor } from './index.ts';
import { expectValidOrRejected, serviceMonitor } from './monitor-arbitraries.ts';

describe('any generated ServiceMonitor', () => {
  it('renders to configs promtool accepts, or is rejected with reasons; never throws', async () => {
    await expectValidOrRejected(serviceMonitor, renderServiceMonitor);
  });
});
