// A small JSON Schema validator for the keywords docs/provenance.schema.json
// uses, and no others: type (a name or a list; "integer" is a whole
// number), properties, required, additionalProperties (false or a schema),
// unevaluatedProperties (false or a schema: the names no properties,
// additionalProperties, $ref, allOf or passing anyOf of the same object
// took, as draft 2020-12 has it), items, enum, anyOf, allOf, and $ref to
// "#/$defs/NAME" (with keywords beside it, as 2020-12 allows). A keyword it
// does not know is an error, so a schema cannot silently say more than is
// checked. Annotations (title, description, $schema, $defs, $comment,
// x-...) are skipped.

const KNOWN = new Set(['type', 'properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'items', 'enum', 'anyOf',
  'allOf', '$ref']);
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
  return check(root, value, schema, path).problems;
}

// validate's problems, and the property names of `value` that `schema`
// evaluated (for an unevaluatedProperties around it).
function check(root, value, schema, path) {
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key) && !ANNOTATION(key)) throw new Error(`${path}: the validator does not know the keyword '${key}'`);
  }
  const problems = [];
  const evaluated = new Set();
  const take = (result) => {
    problems.push(...result.problems);
    for (const name of result.evaluated) evaluated.add(name);
  };
  if (schema.$ref) take(check(root, value, resolve(root, schema), path));
  for (const part of schema.allOf ?? []) take(check(root, value, part, path));
  if (schema.anyOf) {
    const each = schema.anyOf.map((option) => check(root, value, option, path));
    const passing = each.filter((result) => result.problems.length === 0);
    if (passing.length === 0) return { problems: [`${path}: matches none of anyOf (${each.map((r) => r.problems[0]).join('; ')})`], evaluated };
    passing.forEach(take);
  }
  if (schema.type) {
    const types = [schema.type].flat();
    if (!types.some((type) => hasType(value, type))) return { problems: [...problems, `${path}: is ${typeOf(value)}, not ${types.join(' or ')}`], evaluated };
  }
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if (typeOf(value) === 'object') {
    for (const name of schema.required ?? []) {
      if (!(name in value)) problems.push(`${path}: lacks the required '${name}'`);
    }
    // Each field against the first of properties, additionalProperties.
    const rest = [];
    for (const [name, field] of Object.entries(value)) {
      const declared = schema.properties?.[name];
      const other = schema.additionalProperties;
      if (declared || typeof other === 'object') {
        problems.push(...validate(root, field, declared ?? other, `${path}.${name}`));
        evaluated.add(name);
      } else if (other === false) {
        problems.push(`${path}: has '${name}', which the schema does not declare`);
      } else {
        rest.push(name);
      }
    }
    // Then those that nothing above took, against unevaluatedProperties.
    const unevaluated = schema.unevaluatedProperties;
    for (const name of rest.filter((n) => !evaluated.has(n))) {
      if (unevaluated === false) problems.push(`${path}: has '${name}', which the schema does not declare`);
      else if (typeof unevaluated === 'object') problems.push(...validate(root, value[name], unevaluated, `${path}.${name}`));
    }
  }
  if (typeOf(value) === 'array' && schema.items) value.forEach((item, i) => problems.push(...validate(root, item, schema.items, `${path}[${i}]`)));
  return { problems, evaluated };
}

/**
 * Whether the field path `parts` (property names; '[]' for an array's
 * items, '*' for any key of a map) is declared by `schema`: every step
 * through properties, items, additionalProperties, or one of anyOf or allOf.
 */
export function declares(root, parts, schema = root) {
  schema = resolve(root, schema);
  if (parts.length === 0) return true;
  if (schema.anyOf) return schema.anyOf.some((option) => declares(root, parts, option));
  if (schema.allOf?.some((part) => declares(root, parts, part))) return true;
  const [head, ...rest] = parts;
  if (head === '[]') return Boolean(schema.items) && declares(root, rest, schema.items);
  if (schema.properties?.[head]) return declares(root, rest, schema.properties[head]);
  return typeof schema.additionalProperties === 'object' && declares(root, rest, schema.additionalProperties);
}
