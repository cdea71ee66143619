import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDbTypes, GENERATED_TYPES_FILE } from './db-types.js';

const kept = () => fs.readFileSync(GENERATED_TYPES_FILE, 'utf8');

describe('the generated database types', () => {
  let fresh = '';

  it('types.generated.ts is what the migrations build', async () => {
    fresh = await freshDbTypes();
    if (fresh === kept()) return;
    const a = kept().split('\n');
    const b = fresh.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    expect.fail(
      `server/src/db/types.generated.ts does not match the migrations: run \`npm run db:types\` and commit it.\n` +
        `first difference at line ${line + 1}:\n  checked in: ${a[line] ?? '(end of file)'}\n  migrations: ${b[line] ?? '(end of file)'}`,
    );
  });

  it('every table has its area in db/OWNERS.md', () => {
    const tables = [...(fresh || kept()).matchAll(/^ {2}(\w+): \w+Table;$/gm)].map((m) => m[1]);
    expect(tables.length).toBeGreaterThan(40);
    const owners = fs.readFileSync(path.join(import.meta.dirname, 'OWNERS.md'), 'utf8');
    const missing = tables.filter((t) => !new RegExp(`^\\| \`${t}\` +\\| \\S`, 'm').test(owners));
    expect(missing, 'tables with no area in server/src/db/OWNERS.md: add a row for each').toEqual([]);
  });
});
