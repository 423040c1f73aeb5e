// The README's examples, so that tests run exactly what users copy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './models.mjs';

// The README's "## JavaScript API" section.
function apiSection() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## JavaScript API\n');
  if (start < 0) throw new Error('README.md has no "## JavaScript API" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The first ```language block of the README's "## JavaScript API" section. */
export function readmeExample(language) {
  const match = apiSection().match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'));
  if (!match) throw new Error(`README.md's JavaScript API section has no \`\`\`${language} example`);
  return match[1];
}

/** The first ```language block after the line of the JavaScript API section that contains `marker`. */
export function readmeBlockAfter(marker, language) {
  const section = apiSection();
  const at = section.indexOf(marker);
  if (at < 0) throw new Error(`README.md's JavaScript API section has no "${marker}"`);
  const match = section.slice(at).match(new RegExp('```' + language + '\\n([\\s\\S]*?)```'));
  if (!match) throw new Error(`README.md has no \`\`\`${language} block after "${marker}"`);
  return match[1];
}
