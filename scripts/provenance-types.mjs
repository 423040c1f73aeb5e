// The TypeScript types of a model's provenance record (ModelInfo.provenance
// in src/wasm/index.d.ts), generated from its schema,
// docs/provenance.schema.json: one interface per titled object, a field
// optional unless the schema requires it; an object made with allOf of a
// $ref and fields of its own extends the interface of the $ref (as
// ProvenanceExtraDataFile extends ProvenanceDataFile). They sit in
// index.d.ts between two marker lines.
//   node scripts/provenance-types.mjs          rewrites that block
//   node scripts/provenance-types.mjs --check  exits 1 when it differs
// tests/js/provenance-schema.test.mjs runs the check.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const schemaPath = join(root, 'docs', 'provenance.schema.json');
export const typesPath = join(root, 'src', 'wasm', 'index.d.ts');
const BEGIN = '// BEGIN provenance types: generated from docs/provenance.schema.json by scripts/provenance-types.mjs; do not edit.';
const END = '// END provenance types';

/** The generated block (BEGIN to END lines) for `schema`. */
export function provenanceTypes(schema) {
  const interfaces = new Map();  // title -> text
  const named = (s) => (s.$ref ? schema.$defs[s.$ref.split('/').pop()] : s);
  const typeText = (s) => {
    if (s.$ref) return named(s).title ?? typeText(named(s));
    if (s.anyOf) return s.anyOf.map(typeText).join(' | ');
    if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
    const types = [s.type].flat();
    return types.map((type) => {
      if (type === 'integer' || type === 'number') return 'number';
      if (type === 'array') return `${wrap(typeText(s.items))}[]`;
      if (type === 'object') return objectType(s);
      return type;
    }).join(' | ');
  };
  const wrap = (text) => (/[|&]/.test(text) ? `(${text})` : text);
  const objectType = (s) => {
    if (!s.properties && !s.allOf) return `{ [key: string]: ${typeText(s.additionalProperties)} }`;
    if (s.title) {
      if (!interfaces.has(s.title)) {
        interfaces.set(s.title, '');
        // allOf: the $refs are what it extends; the rest, with s itself, its own fields.
        const parts = [s, ...(s.allOf ?? [])];
        const bases = parts.filter((part) => part.$ref).map(typeText);
        const own = parts.filter((part) => !part.$ref);
        const required = new Set(own.flatMap((part) => part.required ?? []));
        const fields = own.flatMap((part) => Object.entries(part.properties ?? {})).map(([name, field]) => {
          const doc = field.description ?? named(field).description;
          return `${doc ? `  /** ${doc} */\n` : ''}  ${name}${required.has(name) ? '' : '?'}: ${typeText(field)};`;
        });
        const heading = `export interface ${s.title}${bases.length ? ` extends ${bases.join(', ')}` : ''}`;
        interfaces.set(s.title, `${s.description ? `/** ${s.description} */\n` : ''}${heading} {\n${fields.join('\n')}\n}`);
      }
      return s.title;
    }
    const required = new Set(s.required ?? []);
    return `{ ${Object.entries(s.properties).map(([name, field]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(field)}`).join('; ')} }`;
  };
  objectType(schema);
  for (const def of Object.values(schema.$defs)) objectType(def);
  return [BEGIN, ...[...interfaces.values()], END].join('\n');
}

function replaceBlock(text, block) {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${typesPath} has no provenance block (${BEGIN} ... ${END})`);
  return text.slice(0, start) + block + text.slice(end + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const block = provenanceTypes(JSON.parse(readFileSync(schemaPath, 'utf8')));
  const text = readFileSync(typesPath, 'utf8');
  const updated = replaceBlock(text, block);
  if (process.argv.includes('--check')) {
    if (updated !== text) {
      console.error('provenance-types: src/wasm/index.d.ts differs from docs/provenance.schema.json; run node scripts/provenance-types.mjs');
      process.exit(1);
    }
  } else if (updated !== text) {
    writeFileSync(typesPath, updated);
    console.log('provenance-types: src/wasm/index.d.ts updated');
  }
}
