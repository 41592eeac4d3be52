import { CodecErrorV1 } from '@tokenforge/model-protocol';
import { isJsonObject } from './wire-readers.js';

const MAX_SCHEMA_DEPTH = 64;

/**
 * Converts a client's Gemini `Schema` (the OpenAPI 3.0 subset of `parameters` and `responseSchema`) into plain
 * JSON Schema for the task: `type` names are lower-cased (`STRING` → `string`; `TYPE_UNSPECIFIED` is dropped),
 * `nullable: true` becomes a `[type, "null"]` type list, `example` is dropped (an annotation), and
 * `properties`, `items` and `anyOf` are converted recursively. Other subset keywords (`format`, `enum`,
 * `required`, bounds, `propertyOrdering`, ...) are already JSON Schema and pass unchanged.
 *
 * @throws {CodecErrorV1} `invalid-request` for a schema that is not an object or nests deeper than 64 levels.
 */
export function fromGeminiOpenApiSchema(schema: unknown, path: string): Record<string, unknown> {
  return convert(schema, path, 0);
}

function convert(schema: unknown, path: string, depth: number): Record<string, unknown> {
  if (!isJsonObject(schema)) throw new CodecErrorV1('invalid-request', 'schema is not a JSON object', { path });
  if (depth > MAX_SCHEMA_DEPTH) throw new CodecErrorV1('invalid-request', 'schema nests too deeply', { path });
  const output: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    const keywordPath = `${path}.${keyword}`;
    switch (keyword) {
      case 'type':
        if (typeof value !== 'string') throw new CodecErrorV1('invalid-request', 'schema type is not a string', { path: keywordPath });
        if (value !== 'TYPE_UNSPECIFIED') output.type = value.toLowerCase();
        break;
      case 'nullable':
      case 'example':
        break;
      case 'properties': {
        if (!isJsonObject(value)) throw new CodecErrorV1('invalid-request', 'schema properties is not an object', { path: keywordPath });
        const properties: Record<string, unknown> = {};
        for (const [name, subschema] of Object.entries(value)) properties[name] = convert(subschema, `${keywordPath}.${name}`, depth + 1);
        output.properties = properties;
        break;
      }
      case 'items':
        output.items = convert(value, keywordPath, depth + 1);
        break;
      case 'anyOf':
        if (!Array.isArray(value)) throw new CodecErrorV1('invalid-request', 'schema anyOf is not an array', { path: keywordPath });
        output.anyOf = value.map((subschema, index) => convert(subschema, `${keywordPath}.${index}`, depth + 1));
        break;
      default:
        output[keyword] = value;
    }
  }
  if (schema.nullable === true && typeof output.type === 'string') output.type = [output.type, 'null'];
  return output;
}
