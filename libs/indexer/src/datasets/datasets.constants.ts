/** The dataset-update stream; subjects live under the deployment's prefix. */
export function datasetSubjects(prefix: string): { updated: string; dead: string; stream: string; durable: string } {
  const safe = prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();
  return {
    updated: `${prefix}.datasets.updated`,
    dead: `${prefix}.datasets.dead`,
    stream: `${safe}_DATASETS`,
    durable: 'indexer',
  };
}
