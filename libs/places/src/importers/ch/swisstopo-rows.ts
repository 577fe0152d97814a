import { PlaceDoc } from '../../domain/place.doc';
import { AddressAggregates } from '../address-aggregates';
import { ImportRun } from '../address-import';
import { sourcesAt } from '../io/source';
import { ChAddressRow, readChAddressCsv } from './ch-address-csv.reader';
import { SeenIds } from './seen-ids';

/** Members of a zip or folder that are address CSVs. */
export const CH_ENTRY = /\.csv$/i;

/**
 * What one import of swisstopo's building-address file keeps across its sources: the file
 * covers Switzerland and Liechtenstein, and each country's import takes its own rows.
 */
export class SwisstopoPass {
  readonly notReal = new Map<string, number>();
  otherCountry = 0;
  private readonly seen = new SeenIds();

  constructor(
    readonly country: 'CH' | 'LI',
    private readonly run: ImportRun,
    private readonly agg: AddressAggregates,
    private readonly build: (row: ChAddressRow, where: string) => PlaceDoc,
  ) {}

  /**
   * The addresses of one source (file, zip or folder), streamed. Only `real` rows of this
   * pass's country are imported; the rest are counted. An EGAID seen again (a later file, a
   * corrected row) replaces the earlier version in the store (same place_id).
   */
  async *read(path: string): AsyncGenerator<PlaceDoc[]> {
    const run = this.run;
    for await (const source of sourcesAt(path, CH_ENTRY)) {
      const rows = readChAddressCsv(source, (e) => {
        if (e.country !== this.country) return this.otherRow();
        run.report.skipped++;
        run.error(`${source.name} line ${e.line}: ${e.message}`);
      });
      for await (const row of rows) {
        if (row.country !== this.country) {
          this.otherRow();
          continue;
        }
        if (row.status !== 'real') {
          run.report.skipped++;
          this.notReal.set(row.status, (this.notReal.get(row.status) ?? 0) + 1);
          continue;
        }
        const where = `${source.name} line ${row.line}`;
        if (this.seen.add(Number(row.egaid))) run.report.addresses++;
        else run.error(`${where}: EGAID ${row.egaid} appears again: this later row replaces the earlier one`);
        const doc = this.build(row, where);
        this.agg.add(doc);
        const full = run.push(doc);
        if (full) yield full;
      }
    }
  }

  /** Liechtenstein's rows are not Swiss addresses: skipped under CH. Under LI the Swiss rows are simply not this import's. */
  private otherRow(): void {
    this.otherCountry++;
    if (this.country === 'CH') this.run.report.skipped++;
  }

  /** One line per kind of row left out, once every source is read. */
  summarize(): void {
    for (const [status, n] of this.notReal) this.run.error(`${n} rows with ADR_STATUS "${status}" are not existing addresses: not imported`);
    if (!this.otherCountry) return;
    this.run.error(
      this.country === 'CH'
        ? `${this.otherCountry} rows of Liechtenstein (COM_FOSNR 7001-7011) are not Swiss addresses: not imported (import them with "addresses LI <this file>")`
        : `${this.otherCountry} rows of Switzerland left out (they are imported with "addresses CH <this file>")`,
    );
  }
}
