/** One live dataset of a country: what `npm run import -- status` and `/health/ready` show. */
export interface LiveDataset {
  format: string;
  /** The file, folder or URL it was imported from. */
  source: string;
  checksum?: string;
  /** When it went live (ISO). */
  since: string;
  version: string;
  /** The country's documents in that version (a change batch: the documents it wrote). */
  docs: number;
  /**
   * The documents this dataset gave itself, where the version holds others too (a catalogue's
   * version carries the country's addresses, an address version its catalogue).
   */
  layerDocs?: number;
  /** What the run told the user (distributed: the indexer's notes, which `import --wait` prints with the live line). */
  notes?: string[];
  /** The dataset event that made it live (its JetStream msg id), in the distributed profile: what `import --wait` looks for. */
  event?: string;
  /**
   * The bundled sample's invented rows put this layer live (a standalone first start), not an
   * official file: any official import of the country replaces the whole sample.
   */
  sample?: true;
}

/** country -> dataset kind -> the live one. */
export type DatasetStatus = Record<string, Record<string, LiveDataset>>;

/**
 * Provider of the live datasets (the places module and the indexer app give one). `/health/ready`
 * shows its answer as `datasets`; it never decides readiness (an empty store is ready).
 */
export const IMPORT_STATUS = Symbol.for('lookup.IMPORT_STATUS');
export type ImportStatusReader = () => Promise<DatasetStatus>;

const READ_TIMEOUT_MS = 2000;

/** The reader's answer, or `{ error }` (failure or no answer in 2 s): informative only. */
export async function readImportStatus(reader: ImportStatusReader): Promise<DatasetStatus | { error: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      reader(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS))),
    ]);
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
