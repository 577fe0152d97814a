import { parseRequest, PlaceValidateRequest, PlaceValidation } from '@lookup/contracts';
import { PlaceDoc } from '../../domain/place.doc';
import { PlacesValidateService } from '../places-validate.service';
import { CASE_KINDS, CaseKind, isRightAnswer, ValidateCase, ValidateCaseGenerator } from './validate-cases';

/**
 * Passes an import's documents through unchanged while handing each municipality's addresses
 * to the case generator (the RUIAN files come one municipality at a time, addresses first).
 */
export async function* teeAddresses(docs: AsyncIterable<PlaceDoc[]>, gen: ValidateCaseGenerator): AsyncGenerator<PlaceDoc[]> {
  let current: PlaceDoc[] = [];
  const flush = () => {
    if (current.length) gen.addMunicipality(current);
    current = [];
  };
  for await (const batch of docs) {
    for (const d of batch) {
      if (d.object !== 'address') continue;
      if (current.length && current[0].municipality_id !== d.municipality_id) flush();
      current.push(d);
    }
    yield batch;
  }
  flush();
}

export interface KindResult {
  kind: CaseKind;
  cases: number;
  right: number;
  /** A few wrong answers, to read. */
  wrong: { params: Record<string, string>; expected: string; got: string }[];
}

/** Runs every case once; per kind, how many got the answer the register implies. `onEach` times or counts calls. */
export async function runCases(svc: PlacesValidateService, cases: ValidateCase[], onEach?: (c: ValidateCase, ms: number) => void): Promise<KindResult[]> {
  const byKind = new Map<CaseKind, KindResult>(CASE_KINDS.map((kind) => [kind, { kind, cases: 0, right: 0, wrong: [] }]));
  for (const c of cases) {
    const t0 = process.hrtime.bigint();
    const v: PlaceValidation = await svc.validate(parseRequest(PlaceValidateRequest, c.params));
    onEach?.(c, Number(process.hrtime.bigint() - t0) / 1e6);
    const r = byKind.get(c.kind)!;
    r.cases++;
    if (isRightAnswer(c, v)) r.right++;
    else if (r.wrong.length < 5) {
      r.wrong.push({
        params: c.params,
        expected: `${c.expect.verdict} ${c.expect.place_id ?? ''} ${c.expect.fields?.join(',') ?? ''}`,
        got: `${v.verdict} ${v.place?.formatted_address ?? v.candidates.map((p) => p.formatted_address).join(' | ')} ${v.corrections.map((x) => x.field).join(',')}`,
      });
    }
  }
  return [...byKind.values()];
}
