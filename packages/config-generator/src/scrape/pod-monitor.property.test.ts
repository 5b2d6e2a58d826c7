/**
 * Property: for any PodMonitor a user can write (valid or not), rendering either yields scrape
 * configs the real promtool accepts, or rejects the monitor with reasons — never an exception.
 */
import { renderPodMonitor } from './index.ts';
import { expectValidOrRejected, podMonitor } from './monitor-arbitraries.ts';

describe('any generated PodMonitor', () => {
  it('renders to configs promtool accepts, or is rejected with reasons; never throws', async () => {
    await expectValidOrRejected(podMonitor, renderPodMonitor);
  });
});
