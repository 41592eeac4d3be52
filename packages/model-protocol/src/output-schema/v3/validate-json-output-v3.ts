import { CONTRACT_BOUNDS_V3 } from '../../bounds/v3/contract-bounds-v3.js';

/**
 * What checking a model's JSON output against the schema the task asked for found (contract revision V3).
 * `unsupported` means the schema uses something this bounded validator does not check (`pattern`, say): the
 * output is neither accepted nor refused by it, and a host decides.
 */
export type JsonOutputVerdictV3 =
  | { readonly status: 'valid' }
  | {
      readonly status: 'mismatch';
      /** Where in the output (`$.items[2].name`): the output's own keys and indices, never a value. */
      readonly path: string;
      /** The rule the output broke (`required property missing`). */
      readonly rule: string;
    }
  | {
      readonly status: 'unsupported';
      /** The keyword or limit that stopped the check. */
      readonly keyword: string;
      /** Where in the schema. */
      readonly schemaPath: string;
    };

/** Schema keywords that only describe: read by nobody here. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$schema',
  '$id',
  '$comment',
  'format',
  'deprecated',
  'readOnly',
  'writeOnly',
  'propertyOrdering',
  'strict',
  '$defs',
  'definitions',
]);

/** The keywords this validator checks; any other keyword makes the verdict `unsupported`. */
export const JSON_OUTPUT_SCHEMA_KEYWORDS_V3 = Object.freeze([
  'type',
  'nullable',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
] as const);

const CHECKED = new Set<string>(JSON_OUTPUT_SCHEMA_KEYWORDS_V3);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

type Schema = Readonly<Record<string, unknown>>;
type Verdict = JsonOutputVerdictV3;
const VALID: Verdict = Object.freeze({ status: 'valid' });

class Unsupported {
  constructor(
    readonly keyword: string,
    readonly schemaPath: string,
  ) {}
}

interface Walk {
  readonly root: Schema;
  steps: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) return Array.isArray(right) && left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
  }
  return false;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    default:
      return value === null;
  }
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function count(schema: Schema, key: string, schemaPath: string): number | undefined {
  const value = schema[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Unsupported(key, schemaPath);
  return value;
}

function resolve(walk: Walk, reference: unknown, schemaPath: string): Schema {
  if (typeof reference !== 'string') throw new Unsupported('$ref', schemaPath);
  if (reference === '#') return walk.root;
  const match = /^#\/(\$defs|definitions)\/([^/~]+)$/.exec(reference);
  const container = match === null ? undefined : walk.root[match[1] as string];
  const target = isPlainObject(container) ? container[match?.[2] as string] : undefined;
  if (!isPlainObject(target)) throw new Unsupported('$ref', schemaPath);
  return target;
}

const mismatch = (path: string, rule: string): Verdict => ({ status: 'mismatch', path, rule });

function check(walk: Walk, schema: unknown, value: unknown, path: string, schemaPath: string, depth: number): Verdict {
  walk.steps += 1;
  if (walk.steps > CONTRACT_BOUNDS_V3.outputSchemaMaxSteps) throw new Unsupported('(too many checks)', schemaPath);
  if (depth > CONTRACT_BOUNDS_V3.outputSchemaMaxDepth) throw new Unsupported('(nested too deeply)', schemaPath);
  if (schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0)) return VALID;
  if (schema === false) return mismatch(path, 'no value is allowed here');
  if (!isPlainObject(schema)) throw new Unsupported('(not a schema)', schemaPath);
  for (const key of Object.keys(schema)) if (!CHECKED.has(key) && !ANNOTATIONS.has(key)) throw new Unsupported(key, schemaPath);

  if (schema.$ref !== undefined) {
    const verdict = check(walk, resolve(walk, schema.$ref, schemaPath), value, path, `${schemaPath}/$ref`, depth + 1);
    if (verdict.status !== 'valid') return verdict;
  }
  const type = schema.type;
  if (type !== undefined) {
    const types = typeof type === 'string' ? [type] : type;
    if (!Array.isArray(types) || types.length === 0 || !types.every((entry) => typeof entry === 'string' && TYPES.has(entry))) throw new Unsupported('type', schemaPath);
    const nullable = schema.nullable === true && value === null;
    if (!nullable && !types.some((entry: string) => typeMatches(entry, value))) return mismatch(path, `expected ${types.join(' or ')}`);
  }
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum)) throw new Unsupported('enum', schemaPath);
    if (!schema.enum.some((option) => jsonEqual(option, value))) return mismatch(path, 'not one of the allowed values');
  }
  if (schema.const !== undefined && !jsonEqual(schema.const, value)) return mismatch(path, 'not the required constant');

  if (typeof value === 'string') {
    const min = count(schema, 'minLength', schemaPath);
    const max = count(schema, 'maxLength', schemaPath);
    if (min !== undefined || max !== undefined) {
      const length = codePoints(value);
      if (min !== undefined && length < min) return mismatch(path, `shorter than ${min} characters`);
      if (max !== undefined && length > max) return mismatch(path, `longer than ${max} characters`);
    }
  }
  if (typeof value === 'number') {
    const minimum = count(schema, 'minimum', schemaPath);
    const maximum = count(schema, 'maximum', schemaPath);
    const exclusiveMinimum = count(schema, 'exclusiveMinimum', schemaPath);
    const exclusiveMaximum = count(schema, 'exclusiveMaximum', schemaPath);
    if (minimum !== undefined && value < minimum) return mismatch(path, `less than ${minimum}`);
    if (maximum !== undefined && value > maximum) return mismatch(path, `greater than ${maximum}`);
    if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) return mismatch(path, `not greater than ${exclusiveMinimum}`);
    if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) return mismatch(path, `not less than ${exclusiveMaximum}`);
  }
  if (Array.isArray(value)) {
    const min = count(schema, 'minItems', schemaPath);
    const max = count(schema, 'maxItems', schemaPath);
    if (min !== undefined && value.length < min) return mismatch(path, `fewer than ${min} items`);
    if (max !== undefined && value.length > max) return mismatch(path, `more than ${max} items`);
    if (schema.items !== undefined) {
      if (Array.isArray(schema.items)) throw new Unsupported('items', schemaPath);
      for (let index = 0; index < value.length; index += 1) {
        const verdict = check(walk, schema.items, value[index], `${path}[${index}]`, `${schemaPath}/items`, depth + 1);
        if (verdict.status !== 'valid') return verdict;
      }
    }
  }
  if (isPlainObject(value)) {
    const verdict = checkObject(walk, schema, value, path, schemaPath, depth);
    if (verdict.status !== 'valid') return verdict;
  }
  return checkCombinators(walk, schema, value, path, schemaPath, depth);
}

function checkObject(walk: Walk, schema: Schema, value: Record<string, unknown>, path: string, schemaPath: string, depth: number): Verdict {
  const keys = Object.keys(value);
  const minProperties = count(schema, 'minProperties', schemaPath);
  const maxProperties = count(schema, 'maxProperties', schemaPath);
  if (minProperties !== undefined && keys.length < minProperties) return mismatch(path, `fewer than ${minProperties} properties`);
  if (maxProperties !== undefined && keys.length > maxProperties) return mismatch(path, `more than ${maxProperties} properties`);
  const properties = schema.properties;
  if (properties !== undefined && !isPlainObject(properties)) throw new Unsupported('properties', schemaPath);
  const required = schema.required;
  if (required !== undefined) {
    if (!Array.isArray(required)) throw new Unsupported('required', schemaPath);
    for (const name of required) {
      if (typeof name !== 'string') throw new Unsupported('required', schemaPath);
      if (!Object.hasOwn(value, name)) return mismatch(path, `required property ${JSON.stringify(name)} missing`);
    }
  }
  const additional = schema.additionalProperties;
  for (const key of keys) {
    const childPath = `${path}.${key}`;
    if (properties !== undefined && Object.hasOwn(properties, key)) {
      const verdict = check(walk, properties[key], value[key], childPath, `${schemaPath}/properties`, depth + 1);
      if (verdict.status !== 'valid') return verdict;
    } else if (additional !== undefined) {
      if (additional === false) return mismatch(childPath, 'property not allowed');
      const verdict = check(walk, additional, value[key], childPath, `${schemaPath}/additionalProperties`, depth + 1);
      if (verdict.status !== 'valid') return verdict;
    }
  }
  return VALID;
}

function checkCombinators(walk: Walk, schema: Schema, value: unknown, path: string, schemaPath: string, depth: number): Verdict {
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (branches === undefined) continue;
    if (!Array.isArray(branches) || branches.length === 0) throw new Unsupported(keyword, schemaPath);
    const verdicts = branches.map((branch, index) => check(walk, branch, value, path, `${schemaPath}/${keyword}/${index}`, depth + 1));
    const passed = verdicts.filter((verdict) => verdict.status === 'valid').length;
    if (keyword === 'allOf' && passed < branches.length) return verdicts.find((verdict) => verdict.status !== 'valid') as Verdict;
    if (keyword === 'anyOf' && passed === 0) return mismatch(path, 'matches none of the allowed shapes');
    if (keyword === 'oneOf' && passed !== 1) return mismatch(path, passed === 0 ? 'matches none of the allowed shapes' : 'matches more than one shape');
  }
  return VALID;
}

/**
 * Checks a JSON value against a bounded JSON-schema subset ({@link JSON_OUTPUT_SCHEMA_KEYWORDS_V3}, local `$ref`s,
 * annotations ignored): no regular expressions, bounded depth and work. Never throws.
 */
export function validateJsonOutputV3(schema: unknown, value: unknown): JsonOutputVerdictV3 {
  const root = isPlainObject(schema) ? schema : {};
  try {
    return check({ root, steps: 0 }, schema, value, '$', '#', 0);
  } catch (error) {
    if (error instanceof Unsupported) return { status: 'unsupported', keyword: error.keyword, schemaPath: error.schemaPath };
    return { status: 'unsupported', keyword: '(unreadable schema)', schemaPath: '#' };
  }
}

/** Parses a model's text output as JSON, then {@link validateJsonOutputV3}; text that is not JSON is a mismatch. */
export function validateJsonOutputTextV3(schema: unknown, text: string): JsonOutputVerdictV3 {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { status: 'mismatch', path: '$', rule: 'the output is not JSON' };
  }
  return validateJsonOutputV3(schema, value);
}
