import { TransformationType } from 'class-transformer';
import type { TransformFnParams } from 'class-transformer';
import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * parseRequest's first try: the same DTO that class-transformer and class-validator would make
 * from parameters that are all plain values (text, numbers, booleans) or lists of them (what a
 * form body, a query string, a flat JSON body or a DTO that crossed NATS carries), built and
 * checked in one pass over the DTO's own metadata, or `undefined` when anything is not that
 * simple or any check fails. The caller then
 * runs the libraries (which say what is wrong, in their words). It was a tenth of the gateway's
 * main-thread time per search in the CPU profile: the libraries look up metadata, copy values
 * and build an error object for every property on every call.
 *
 * What it runs is the libraries' own: the @Transform functions in class-transformer's order,
 * and each check's constraint instance (class-validator's container) with the arguments class-
 * validator passes, the conditional ones (@IsOptional) deciding first. A class is taken only when
 * its metadata has nothing else: custom and conditional checks without `each`, groups or
 * `always`; transforms without groups or versions; no @Type, @Expose or @Exclude; no accessor or
 * method under a property's name. fast-parse.spec.ts compares both ends on every DTO with
 * generated parameters.
 */

type TransformFn = (params: TransformFnParams) => unknown;

interface Check {
  validate: (value: unknown, args: ValidationArguments) => unknown;
  constraints: unknown[];
}

interface PropertyPlan {
  name: string;
  conditions: Array<(object: object, value: unknown) => boolean>;
  checks: Check[];
  transforms: TransformFn[];
}

interface ClassPlan {
  properties: Map<string, PropertyPlan>;
  ordered: PropertyPlan[];
}

type ValidatorStorage = {
  getTargetValidationMetadatas(target: unknown, schema: string, always: boolean, strictGroups: boolean, groups?: string[]): ValidationMetadata[];
  getTargetValidatorConstraints(target: unknown): Array<{ async: boolean; instance: { validate: Check['validate'] } }>;
};

type TransformerStorage = {
  findTransformMetadatas(target: unknown, property: string, type: TransformationType): Array<{ transformFn: TransformFn; options?: { groups?: string[]; since?: number; until?: number } }>;
  findTypeMetadata(target: unknown, property: string): unknown;
  getExposedMetadatas(target: unknown): unknown[];
  getExcludedMetadatas(target: unknown): unknown[];
};

// class-transformer's metadata (its package exports no path to it with types).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transformer = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage }).defaultMetadataStorage;

/** Per class: its plan (null: not a simple class), for the metadata array it was made from. */
const plans = new WeakMap<object, { from: ValidationMetadata[]; plan: ClassPlan | null }>();

/** Options class-transformer's transforms see (parseRequest's plainToInstance options, with the library's defaults). */
const TRANSFORM_OPTIONS = Object.freeze({ exposeDefaultValues: true, exposeUnsetFields: true, enableCircularCheck: false, enableImplicitConversion: false, excludeExtraneousValues: false, excludePrefixes: undefined, strategy: undefined });

function planFor(cls: new () => object): ClassPlan | null {
  const validators = getMetadataStorage() as unknown as ValidatorStorage;
  // Memoised (validation-metadata.ts): the same array until a decorator registers more metadata.
  const metadata = validators.getTargetValidationMetadatas(cls, '', false, false, undefined);
  const known = plans.get(cls);
  if (known && known.from === metadata) return known.plan;
  const plan = makePlan(cls, metadata, validators);
  plans.set(cls, { from: metadata, plan });
  return plan;
}

function makePlan(cls: new () => object, metadata: ValidationMetadata[], validators: ValidatorStorage): ClassPlan | null {
  if (metadata.length === 0) return null;
  if (transformer.getExposedMetadatas(cls).length > 0 || transformer.getExcludedMetadatas(cls).length > 0) return null;
  const defaults = Object.keys(new cls());
  const properties = new Map<string, PropertyPlan>();
  for (const m of metadata) {
    if (m.each || m.always || (m.groups && m.groups.length > 0)) return null;
    let p = properties.get(m.propertyName);
    if (!p) {
      if (m.propertyName in cls.prototype || transformer.findTypeMetadata(cls, m.propertyName)) return null;
      const transforms = transformer.findTransformMetadatas(cls, m.propertyName, TransformationType.PLAIN_TO_CLASS);
      if (transforms.some((t) => t.options && (t.options.groups?.length || t.options.since !== undefined || t.options.until !== undefined))) return null;
      p = { name: m.propertyName, conditions: [], checks: [], transforms: transforms.map((t) => t.transformFn) };
      properties.set(m.propertyName, p);
    }
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      p.conditions.push(m.constraints[0] as PropertyPlan['conditions'][number]);
    } else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
      for (const c of validators.getTargetValidatorConstraints(m.constraintCls)) {
        // validateSync ignores async constraints.
        if (c.async) continue;
        const instance = c.instance;
        p.checks.push({ validate: instance.validate.bind(instance), constraints: m.constraints });
      }
    } else {
      return null;
    }
  }
  // A default the constructor sets on a property without checks is refused by the whitelist.
  if (defaults.some((k) => !properties.has(k))) return null;
  return { properties, ordered: [...properties.values()] };
}

function isPlainValue(v: unknown): boolean {
  const type = typeof v;
  return type === 'string' || type === 'number' || type === 'boolean';
}

export function fastParse<T extends object>(cls: new () => T, params: Record<string, unknown>): T | undefined {
  const plan = planFor(cls);
  if (!plan) return undefined;
  const instance = new cls() as Record<string, unknown>;
  for (const key in params) {
    const value = params[key];
    let out: unknown = value;
    if (Array.isArray(value)) {
      // class-transformer copies a list item by item (a primitive as it is).
      const copy: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        if (!isPlainValue(value[i])) return undefined;
        copy.push(value[i]);
      }
      out = copy;
    } else if (!isPlainValue(value)) {
      return undefined;
    }
    const p = plan.properties.get(key);
    // Not a property of the DTO: refused (whitelist), in the libraries' words.
    if (!p) return undefined;
    for (let i = 0; i < p.transforms.length; i++) out = p.transforms[i]({ value: out, key, obj: params, type: TransformationType.PLAIN_TO_CLASS, options: TRANSFORM_OPTIONS });
    instance[key] = out;
  }
  const targetName = cls.name;
  for (let i = 0; i < plan.ordered.length; i++) {
    const p = plan.ordered[i];
    const value = instance[p.name];
    let applies = true;
    for (let c = 0; c < p.conditions.length; c++) if (!p.conditions[c](instance, value)) applies = false;
    if (!applies) continue;
    for (let c = 0; c < p.checks.length; c++) {
      const check = p.checks[c];
      const ok = check.validate(value, { targetName, property: p.name, object: instance, value, constraints: check.constraints });
      if (ok !== true && (!ok || typeof (ok as { then?: unknown }).then === 'function')) return undefined;
    }
  }
  return instance as T;
}
