// docs/seed-numbers.md is kept honest here: every test its tables name must exist in the named file (a Catch2
// TEST_CASE or SECTION, or a node test('…')), every row must have all its cells filled, and each seed's count line
// must agree with its table (rows marked strict / loose / erratum / explained) and its open list. Needs no build: fs and path only.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const docPath = path.join(root, 'docs/seed-numbers.md');
const COLUMNS = ['example', 'printed value', 'ours', 'tolerance', 'test', 'match'];
const MATCHES = ['strict', 'loose', 'erratum', 'explained'];

const cells = (line) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());

/** Splits the page into its seed sections (a "## " heading with a table), each with rows, open items and count. */
export function parseSeeds(md) {
  const seeds = [];
  let seed = null;
  let inOpen = false;
  for (const line of md.split('\n')) {
    if (line.startsWith('## ')) {
      seed = { title: line.slice(3).trim(), header: null, rows: [], open: [], counts: [], problems: [] };
      seeds.push(seed);
      inOpen = false;
      continue;
    }
    if (!seed) continue;
    if (line.startsWith('### ')) {
      inOpen = /not reproduced \/ open/i.test(line);
      continue;
    }
    if (line.startsWith('|')) {
      const c = cells(line);
      if (!seed.header) seed.header = c;
      else if (c.every((x) => /^:?-+:?$/.test(x))) continue;
      else seed.rows.push(c);
      continue;
    }
    if (inOpen && line.startsWith('- ')) seed.open.push(line.slice(2));
    // "N explained" is optional (a seed without such rows may leave it out)
    const m = line.match(/^\*\*Count:\*\*\s*(\d+) strict, (\d+) loose, (\d+) erratum(?:, (\d+) explained)?; (\d+) open \((\d+) examples\)\.\s*$/);
    if (m) seed.counts.push(m.slice(1).map((x) => Number(x ?? 0)));
    else if (/^\*\*Count/.test(line)) seed.problems.push(`unreadable count line: ${line}`);
  }
  return seeds.filter((s) => s.header);
}

/** The (name, file) pairs of a test cell, or null when the cell holds anything else. */
export function testRefs(cell) {
  const re = /`([^`]+)` in `([^`]+)`/g;
  const refs = [];
  let rest = cell;
  for (const m of cell.matchAll(re)) {
    refs.push({ name: m[1], file: m[2] });
    rest = rest.replace(m[0], '');
  }
  return refs.length > 0 && /^[;\s]*$/.test(rest) ? refs : null;
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sources = new Map();

/** Whether the file declares the named test: a C++ TEST_CASE/SECTION or a node test(). */
export function testExists(name, file) {
  const full = path.join(root, file);
  if (!sources.has(full)) sources.set(full, existsSync(full) ? readFileSync(full, 'utf8') : null);
  const src = sources.get(full);
  if (src === null) return false;
  if (/\.(cpp|hpp|cc|h)$/.test(file)) {
    const lit = escapeRe(name.replace(/\\/g, '\\\\').replace(/"/g, '\\"'));
    return new RegExp(`\\b(TEST_CASE|SECTION)\\(\\s*"${lit}"`).test(src);
  }
  if (/\.m?js$/.test(file)) {
    return ["'", '"', '`'].some((q) => {
      const lit = escapeRe(name.replace(/\\/g, '\\\\').replaceAll(q, `\\${q}`));
      return new RegExp(`\\btest\\(\\s*${escapeRe(q)}${lit}${escapeRe(q)}`).test(src);
    });
  }
  return false;
}

/** Every problem of one seed section, as readable strings (empty when the section is honest). */
export function checkSeed(seed) {
  const problems = [...seed.problems];
  if (JSON.stringify(seed.header.map((h) => h.toLowerCase())) !== JSON.stringify(COLUMNS))
    problems.push(`header is ${JSON.stringify(seed.header)}, expected ${JSON.stringify(COLUMNS)}`);
  const tally = { strict: 0, loose: 0, erratum: 0, explained: 0 };
  seed.rows.forEach((row, i) => {
    const where = `row ${i + 1} (${(row[0] ?? '').slice(0, 40)})`;
    if (row.length !== COLUMNS.length) {
      problems.push(`${where}: ${row.length} cells, expected ${COLUMNS.length}`);
      return;
    }
    row.forEach((c, k) => {
      if (c === '') problems.push(`${where}: empty "${COLUMNS[k]}" cell`);
    });
    if (MATCHES.includes(row[5])) tally[row[5]]++;
    else problems.push(`${where}: match is "${row[5]}", expected one of ${MATCHES.join(', ')}`);
    const refs = testRefs(row[4]);
    if (!refs) {
      problems.push(`${where}: test cell must be \`name\` in \`file\` pairs separated by "; "`);
      return;
    }
    for (const { name, file } of refs)
      if (!testExists(name, file)) problems.push(`${where}: no test "${name}" in ${file}`);
  });
  if (seed.rows.length === 0) problems.push('the table has no rows');
  if (seed.counts.length !== 1) problems.push(`${seed.counts.length} count lines, expected 1`);
  else {
    const [strict, loose, erratum, explained, open, total] = seed.counts[0];
    const want = [tally.strict, tally.loose, tally.erratum, tally.explained, seed.open.length, seed.rows.length + seed.open.length];
    if (JSON.stringify([strict, loose, erratum, explained, open, total]) !== JSON.stringify(want))
      problems.push(`count line says ${strict} strict, ${loose} loose, ${erratum} erratum, ${explained} explained; ${open} open (${total}); ` +
        `the table and list give ${want[0]}, ${want[1]}, ${want[2]}, ${want[3]}; ${want[4]} (${want[5]})`);
  }
  return problems;
}

const md = readFileSync(docPath, 'utf8');
const seeds = parseSeeds(md);

describe('docs/seed-numbers.md', () => {
  test('has one table per seed: Robinson, Freeman, the handbook with Lee, Tesar–Graves', () => {
    const titles = seeds.map((s) => s.title);
    assert.equal(titles.length, 4, titles.join(' | '));
    for (const word of ['Robinson', 'Freeman', 'Lee', 'Tesar']) assert.ok(titles.some((t) => t.includes(word)), word);
  });

  for (const seed of seeds) {
    test(`${seed.title}: every named test exists, every cell is filled, the count line is right`, () => {
      assert.deepEqual(checkSeed(seed), []);
    });
  }

  test('a row naming a missing test, an empty cell or a wrong count is caught', () => {
    const first = seeds[0];
    const [row] = first.rows;
    const refs = testRefs(row[4]);
    assert.ok(refs && testExists(refs[0].name, refs[0].file));
    const renamed = { ...first, rows: [[...row.slice(0, 4), row[4].replace(refs[0].name, `${refs[0].name} (renamed)`), row[5]], ...first.rows.slice(1)] };
    assert.ok(checkSeed(renamed).some((p) => p.includes('(renamed)')));
    const emptied = { ...first, rows: [['', ...row.slice(1)], ...first.rows.slice(1)] };
    assert.ok(checkSeed(emptied).some((p) => p.includes('empty "example"')));
    const recounted = { ...first, rows: [[...row.slice(0, 5), 'loose'], ...first.rows.slice(1)] };
    assert.ok(checkSeed(recounted).some((p) => p.startsWith('count line says')));
    const explained = { ...first, rows: [[...row.slice(0, 5), 'explained'], ...first.rows.slice(1)] };
    assert.ok(checkSeed(explained).some((p) => p.startsWith('count line says')));
    const [c] = parseSeeds('## S\n| a |\n|---|\n| b |\n**Count:** 1 strict, 2 loose, 3 erratum, 4 explained; 5 open (15 examples).\n')[0].counts;
    assert.deepEqual(c, [1, 2, 3, 4, 5, 15]);
    const [d] = parseSeeds('## S\n| a |\n|---|\n| b |\n**Count:** 1 strict, 2 loose, 3 erratum; 5 open (11 examples).\n')[0].counts;
    assert.deepEqual(d, [1, 2, 3, 0, 5, 11]);
    assert.equal(testExists('no such test', 'tests/core/kinematics/test_fk.cpp'), false);
    assert.equal(testExists(refs[0].name, 'tests/core/no_such_file.cpp'), false);
  });
});
