// A small JSON Schema validator for the keywords docs/provenance.schema.json
// uses, and no others: type (a name or a list; "integer" is a whole
// number), properties, required, additionalProperties (false or a schema),
// items, enum, anyOf, and $ref to "#/$defs/NAME". A keyword it does not
// know is an error, so a schema cannot silently say more than is checked.
// Annotations (title, description, $schema, $defs, x-...) are skipped.

const KNOWN = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', '$ref']);
const ANNOTATION = (key) => ['title', 'description', '$schema', '$defs', '$comment'].includes(key) || key.startsWith('x-');

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value, type) {
  if (type === 'integer') return Number.isInteger(value);
  return typeOf(value) === type;
}

/** The schema `$ref` names in `root` (only "#/$defs/NAME"). */
export function resolve(root, schema) {
  if (!schema.$ref) return schema;
  const name = /^#\/\$defs\/([^/]+)$/.exec(schema.$ref)?.[1];
  const target = name && root.$defs?.[name];
  if (!target) throw new Error(`unresolvable $ref ${schema.$ref}`);
  return target;
}

/** The problems of `value` against `schema` (part of `root`), each "PATH: what"; [] when it validates. */
export function validate(root, value, schema = root, path = '$') {
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key) && !ANNOTATION(key)) throw new Error(`${path}: the validator does not know the keyword '${key}'`);
  }
  if (schema.$ref) return validate(root, value, resolve(root, schema), path);
  if (schema.anyOf) {
    const each = schema.anyOf.map((option) => validate(root, value, option, path));
    if (!each.some((problems) => problems.length === 0)) return [`${path}: matches none of anyOf (${each.map((p) => p[0]).join('; ')})`];
  }
  const problems = [];
  if (schema.type) {
    const types = [schema.type].flat();
    if (!types.some((type) => hasType(value, type))) return [`${path}: is ${typeOf(value)}, not ${types.join(' or ')}`];
  }
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeOf(value) === 'object') {
    for (const name of schema.required ?? []) {
      if (!(name in value)) problems.push(`${path}: lacks the required '${name}'`);
    }
    for (const [name, field] of Object.entries(value)) {
      const declared = schema.properties?.[name];
      if (declared) problems.push(...validate(root, field, declared, `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}: has '${name}', which the schema does not declare`);
      else if (typeof schema.additionalProperties === 'object') problems.push(...validate(root, field, schema.additionalProperties, `${path}.${name}`));
    }
  }
  if (typeOf(value) === 'array' && schema.items) value.forEach((item, i) => problems.push(...validate(root, item, schema.items, `${path}[${i}]`)));
  return problems;
}

/**
 * Whether the field path `parts` (property names; '[]' for an array's
 * items, '*' for any key of a map) is declared by `schema`: every step
 * through properties, items, additionalProperties or one of anyOf.
 */
export function declares(root, parts, schema = root) {
  schema = resolve(root, schema);
  if (parts.length === 0) return true;
  if (schema.anyOf) return schema.anyOf.some((option) => declares(root, parts, option));
  const [head, ...rest] = parts;
  if (head === '[]') return Boolean(schema.items) && declares(root, rest, schema.items);
  if (schema.properties?.[head]) return declares(root, rest, schema.properties[head]);
  return typeof schema.additionalProperties === 'object' && declares(root, rest, schema.additionalProperties);
}
