import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { isJsonObject } from './wire-readers.js';

/**
 * JSON Schema keywords sent to Gemini unchanged (`parametersJsonSchema`, `responseJsonSchema`: the plain
 * JSON Schema fields, not the older OpenAPI-subset `Schema`).
 */
const PASSED_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'properties',
  'additionalProperties',
  'required',
  'minProperties',
  'maxProperties',
  '$ref',
  '$defs',
  '$id',
  '$anchor',
  'propertyOrdering',
]);

/** Annotations with no validation meaning: dropped, the constraint is unchanged. */
const DROPPED_ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema',
  '$comment',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Keywords whose values are maps of subschemas. */
const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', '$defs']);
/** Keywords whose values are lists of subschemas. */
const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'prefixItems']);
/** Keywords whose value is one subschema (or a boolean). */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set(['items', 'additionalProperties']);

const MAX_SCHEMA_DEPTH = 64;

/**
 * Converts a task's JSON Schema into what Gemini's JSON Schema fields accept, by this rule:
 * - the keywords in `PASSED_KEYWORDS` pass unchanged;
 * - mapped: `oneOf` becomes `anyOf` (Gemini treats them alike; both at once is refused), `const: v` becomes
 *   `enum: [v]` (with `enum` too it is refused), `definitions` becomes `$defs` and `$ref`s into
 *   `#/definitions/` are rewritten to `#/$defs/`;
 * - pure annotations (`$schema`, `$comment`, `examples`, `example`, `default`, `deprecated`, `readOnly`,
 *   `writeOnly`) are dropped;
 * - any other keyword (`allOf`, `not`, `if`/`then`/`else`, `patternProperties`, `uniqueItems`, `multipleOf`,
 *   `dependentRequired`, ...) would be silently ignored or refused by Gemini and change what the schema
 *   allows, so the task is refused with `unsupported-feature` naming the keyword's path.
 *
 * @throws {CodecErrorV1} `unsupported-feature`, or `invalid-request` for a schema that is not an object or
 * nests deeper than 64 levels.
 */
export function toGeminiJsonSchema(schema: unknown, path: string): Record<string, unknown> {
  if (!isJsonObject(schema)) throw new CodecErrorV1('invalid-request', 'schema is not a JSON object', { path });
  return convertSchema(schema, path, 0);
}

function convertSubschema(value: unknown, path: string, depth: number): unknown {
  if (typeof value === 'boolean') return value;
  if (!isJsonObject(value)) throw new CodecErrorV1('invalid-request', 'subschema is not an object or boolean', { path });
  return convertSchema(value, path, depth + 1);
}

function convertSchema(schema: Record<string, unknown>, path: string, depth: number): Record<string, unknown> {
  if (depth > MAX_SCHEMA_DEPTH) throw new CodecErrorV1('invalid-request', 'schema nests too deeply', { path });
  const output: Record<string, unknown> = {};
  for (const [rawKeyword, value] of Object.entries(schema)) {
    const keywordPath = `${path}.${rawKeyword}`;
    if (DROPPED_ANNOTATIONS.has(rawKeyword)) continue;
    let keyword = rawKeyword;
    let converted: unknown = value;
    if (rawKeyword === 'oneOf') {
      if ('anyOf' in schema) throw unsupported('oneOf beside anyOf', keywordPath);
      keyword = 'anyOf';
    } else if (rawKeyword === 'const') {
      if ('enum' in schema) throw unsupported('const beside enum', keywordPath);
      output.enum = [value];
      continue;
    } else if (rawKeyword === 'definitions') {
      if ('$defs' in schema) throw unsupported('definitions beside $defs', keywordPath);
      keyword = '$defs';
    } else if (rawKeyword === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) {
      converted = `#/$defs/${value.slice('#/definitions/'.length)}`;
    } else if (!PASSED_KEYWORDS.has(rawKeyword)) {
      throw unsupported(`schema keyword is not supported by Gemini`, keywordPath);
    }
    if (SCHEMA_MAP_KEYWORDS.has(keyword)) {
      if (!isJsonObject(value)) throw new CodecErrorV1('invalid-request', 'schema map is not an object', { path: keywordPath });
      const map: Record<string, unknown> = {};
      for (const [name, subschema] of Object.entries(value)) {
        map[name] = convertSubschema(subschema, `${keywordPath}.${name}`, depth);
      }
      converted = map;
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword)) {
      if (!Array.isArray(value)) throw new CodecErrorV1('invalid-request', 'schema list is not an array', { path: keywordPath });
      converted = value.map((subschema, index) => convertSubschema(subschema, `${keywordPath}.${index}`, depth));
    } else if (SCHEMA_KEYWORDS.has(keyword)) {
      converted = convertSubschema(value, keywordPath, depth);
    }
    output[keyword] = converted;
  }
  return output;
}

function unsupported(message: string, path: string): CodecErrorV1 {
  return new CodecErrorV1('unsupported-feature', message, { path });
}
