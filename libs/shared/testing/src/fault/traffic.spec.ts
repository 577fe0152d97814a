import { PhaseWindow, samplesByPhase, TrafficSample } from './traffic';

const sample = (at: number, ms: number, status = 200): TrafficSample => ({ at, ms, kind: 'detail', status });

describe('samplesByPhase', () => {
  // Phase A: [0, 2000), its part down over [100, 500]. Phase B: [2000, 4000), down over [2000, 2600].
  const phases: PhaseWindow[] = [
    { from: 0, to: 2000, downAt: 100, upAt: 500 },
    { from: 2000, to: 4000, downAt: 2000, upAt: 2600 },
  ];

  it('puts a request sent in the calm end of a phase and answered in the next outage into that outage', () => {
    const metNextOutage = sample(1995, 40, 503);
    const calm = sample(1500, 20);
    expect(samplesByPhase([metNextOutage, calm], phases)).toEqual([[calm], [metNextOutage]]);
  });

  it('keeps a request sent during an outage and answered late, in the next phase, with that outage', () => {
    const late = sample(450, 1800, 504);
    expect(samplesByPhase([late], phases)).toEqual([[late], []]);
  });

  it('puts a request that met no outage into the phase it was sent in, and one sent after the last phase into none', () => {
    const afterA = sample(700, 10);
    const afterB = sample(3000, 10);
    const tail = sample(4100, 10);
    expect(samplesByPhase([afterA, afterB, tail], phases)).toEqual([[afterA], [afterB]]);
  });
});
