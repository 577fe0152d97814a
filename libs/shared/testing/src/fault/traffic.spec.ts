import { answeredBetween, TrafficSample } from './traffic';

const sample = (at: number, ms: number, status = 200): TrafficSample => ({ at, ms, kind: 'detail', status });

describe('answeredBetween', () => {
  it('puts a request in flight when a phase begins into that phase, by its answer time', () => {
    // Phase A is [0, 1000), phase B (an outage) begins at 1000.
    const sentBeforeAnsweredAfter = sample(995, 40, 503);
    const inA = sample(500, 20);
    const inB = sample(1200, 10, 503);
    const samples = [sentBeforeAnsweredAfter, inA, inB];
    expect(answeredBetween(samples, 0, 1000)).toEqual([inA]);
    expect(answeredBetween(samples, 1000, 2000)).toEqual([sentBeforeAnsweredAfter, inB]);
  });

  it('keeps the bounds half-open, so no sample is counted in two phases', () => {
    const atBoundary = sample(900, 100);
    expect(answeredBetween([atBoundary], 0, 1000)).toEqual([]);
    expect(answeredBetween([atBoundary], 1000, Infinity)).toEqual([atBoundary]);
  });
});
