/**
 * `@promop/config-generator/test-support`: the generator's test fixtures that the end-to-end fuzzing
 * (`@promop/e2e`) and the benchmarks reuse. Never shipped (promop's image leaves test-support/ out), and never
 * imported by the generator itself.
 */
export { TEST_CERT, TEST_KEY } from './scrape-harness.ts';
export { checkYamlRoundTrip, documentsFor, roundTripMismatches, teamString, type RoundTripMismatch } from './yaml-round-trip.ts';
export { podMonitor as podMonitorArbitrary, serviceMonitor as serviceMonitorArbitrary } from '../scrape/monitor-arbitraries.ts';
