type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A small value that satisfies a tool's JSON schema: every required property (all of them when none is marked),
 * the first `enum` or `const` value, `"*"` for strings (a harmless pattern or path for most tools), 1 for numbers,
 * false for booleans, empty arrays. Gemini's upper-case type names are read too.
 */
export function schemaInstance(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) return schemaInstance(variants[0], depth + 1);
  const rawType = Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
  const type = typeof rawType === 'string' ? rawType.toLowerCase() : isObject(schema.properties) ? 'object' : 'string';
  switch (type) {
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : Object.keys(properties);
      return Object.fromEntries(required.map((name) => [name, schemaInstance(properties[name], depth + 1)]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    default:
      return '*';
  }
}
