import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Storage = {
  getTargetValidationMetadatas(target: unknown, schema: string | undefined, always: boolean, strictGroups: boolean, groups?: string[]): ValidationMetadata[];
  groupByPropertyName(metadata: ValidationMetadata[]): Record<string, ValidationMetadata[]>;
  addValidationMetadata(metadata: unknown): void;
  addConstraintMetadata(metadata: unknown): void;
  addValidationSchema(schema: unknown): void;
  [MEMOISED]?: true;
};

const MEMOISED = Symbol('lookup.validationMetadataMemoised');

/**
 * class-validator works out a class's validation metadata on every validate call (a filter over
 * the metadata of every decorated class, for inheritance, then a grouping by property): a tenth
 * of a request's validation in the gateway's CPU profile. The answer only changes when a
 * decorator registers more metadata, so it is kept per class until then. Calls with groups,
 * `always`, `strictGroups` or a schema (none of ours) are passed through.
 */
export function memoiseValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (storage[MEMOISED]) return;
  storage[MEMOISED] = true;
  const targets = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  let byTarget = new Map<unknown, ValidationMetadata[]>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  for (const name of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const add = storage[name].bind(storage);
    storage[name] = (x: unknown) => {
      byTarget = new Map();
      grouped = new WeakMap();
      add(x);
    };
  }
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema || always || strictGroups || (groups && groups.length > 0)) return targets(target, schema, always, strictGroups, groups);
    let found = byTarget.get(target);
    if (!found) {
      found = targets(target, schema, always, strictGroups, groups);
      byTarget.set(target, found);
    }
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) {
      found = group(metadata);
      grouped.set(metadata, found);
    }
    return found;
  };
}
