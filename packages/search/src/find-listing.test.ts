// find lets ripgrep filter names itself only while no ignore rule can apply; these trees put ignore rules where only
// the walk can see them and check the answer is the same as a full listing's, with truthful skip counts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWorkspace, type TempWorkspace } from '@bough/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, searchIn } from '../test/helpers.js';
import { inGitDir, isIgnoreSource, nameFilterFor, outsideIgnoreRulesMayApply } from './internal/ignore-sources.js';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.cleanup();
  ws = undefined;
});

const findIn = async (files: Record<string, string>, request: Record<string, unknown>, extra = {}) => {
  ws = makeWorkspace(files);
  return ok(await searchIn(ws, { action: 'find', ...request }, extra));
};
const listed = (content: string) => (content === '' ? [] : content.split('\n').sort());

describe('find with rules only the walk can see', () => {
  it('a nested .gitignore is honoured and counted', async () => {
    const out = await findIn(
      { 'a.md': '', 'sub/.gitignore': 'skip.md\n', 'sub/skip.md': '', 'sub/keep.md': '' },
      { pattern: '*.md' },
    );
    expect(listed(out.content)).toEqual(['a.md', 'sub/keep.md']);
    expect(out.skipped.ignored).toBe(1);
  });

  it('a nested .gitignore that ignores itself is honoured and counted', async () => {
    const out = await findIn({ 'a.md': '', 'sub/.gitignore': '*\n', 'sub/x.md': '' }, { pattern: '*.md' });
    expect(listed(out.content)).toEqual(['a.md']);
    expect(out.skipped.ignored).toBeGreaterThan(0);
  });

  it('a nested .ignore or .rgignore is honoured', async () => {
    for (const name of ['.ignore', '.rgignore']) {
      const out = await findIn({ 'a.md': '', [`deep/er/${name}`]: 'x.md\n', 'deep/er/x.md': '' }, { pattern: '*.md' });
      expect(listed(out.content)).toEqual(['a.md']);
      expect(out.skipped.ignored).toBe(1);
      ws?.cleanup();
      ws = undefined;
    }
  });

  it("a nested repository's .git/info/exclude is honoured", async () => {
    const out = await findIn(
      { 'a.md': '', 'sub/.git/info/exclude': 'hidden.md\n', 'sub/hidden.md': '', 'sub/shown.md': '' },
      { pattern: '*.md' },
    );
    expect(listed(out.content)).toEqual(['a.md', 'sub/shown.md']);
    expect(out.skipped.ignored).toBe(1);
  });

  it('include_ignored lists what ignore files hide, and nothing inside .git', async () => {
    const out = await findIn(
      { '.gitignore': 'dist\n', 'dist/out.md': '', 'a.md': '', '.git/notes.md': '' },
      { pattern: '*.md', include_ignored: true },
    );
    expect(listed(out.content)).toEqual(['a.md', 'dist/out.md']);
    expect(out.skipped.ignored).toBe(0);
  });

  it('never lists .git itself or anything in it, whatever the name pattern', async () => {
    // No .git/info/exclude at the root, so the narrowed listing is the one that answers (and walks into .git).
    const files = { '.git/HEAD': 'ref\n', 'sub/.git/HEAD': 'ref\n', 'mod/.git': 'gitdir: x\n', HEAD: '' };
    expect(listed((await findIn(files, { pattern: 'HEAD' })).content)).toEqual(['HEAD']);
    ws?.cleanup();
    expect(listed((await findIn(files, { pattern: '.git' })).content)).toEqual([]);
    ws?.cleanup();
    expect(listed((await findIn(files, { pattern: 'HEAD', include_ignored: true })).content)).toEqual(['HEAD']);
  });

  it('case_insensitive names are filtered case-insensitively', async () => {
    const out = await findIn({ 'README.MD': '', 'b.md': '', 'c.txt': '' }, { pattern: '*.md', case_insensitive: true });
    expect(listed(out.content)).toEqual(['README.MD', 'b.md']);
  });

  it('a listing stopped by the count limit answers the same every time (sorted fallback)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`d${i % 6}/f${i}.md`] = '';
    ws = makeWorkspace(files);
    const answers = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const out = ok(
        await searchIn(ws, { action: 'find', pattern: '*.md', max_results: 5 }, { limits: { countLimit: 20 } }),
      );
      expect(out).toMatchObject({ count: 20, shown: 5, count_is_lower_bound: true });
      answers.add(listed(out.content).join(','));
    }
    expect(answers.size).toBe(1);
  });
});

describe('ignore-source helpers', () => {
  it('nameFilterFor narrows only plain names and *suffix names', () => {
    expect(nameFilterFor('**/*.md')).toBe('*.md');
    expect(nameFilterFor('src/*.test.ts')).toBe('*.test.ts');
    expect(nameFilterFor('./README.md')).toBe('README.md');
    expect(nameFilterFor('*')).toBeUndefined();
    expect(nameFilterFor('*.{ts,js}')).toBeUndefined();
    expect(nameFilterFor('file?.md')).toBeUndefined();
    expect(nameFilterFor('src/**')).toBeUndefined();
    expect(nameFilterFor('[ab].md')).toBeUndefined();
  });

  it('recognises ignore sources and .git paths in any case', () => {
    expect(isIgnoreSource('.gitignore')).toBe(true);
    expect(isIgnoreSource('a/b/.RGIGNORE')).toBe(true);
    expect(isIgnoreSource('x/.git/info/exclude')).toBe(true);
    expect(isIgnoreSource('x/gitignore')).toBe(false);
    expect(inGitDir('a/.GIT/x')).toBe(true);
    expect(inGitDir('a/.github/x')).toBe(false);
  });

  it('sees an ignore file or git excludes in an ancestor of the walked directory', async () => {
    const base = mkdtempSync(join(tmpdir(), 'bk-ignore-src-'));
    try {
      const deep = join(base, 'a', 'b');
      mkdirSync(deep, { recursive: true });
      const before = await outsideIgnoreRulesMayApply(deep);
      writeFileSync(join(base, 'a', '.ignore'), 'x\n');
      expect(await outsideIgnoreRulesMayApply(deep)).toBe(true);
      rmSync(join(base, 'a', '.ignore'));
      mkdirSync(join(base, '.git', 'info'), { recursive: true });
      writeFileSync(join(base, '.git', 'info', 'exclude'), 'x\n');
      expect(await outsideIgnoreRulesMayApply(deep)).toBe(true);
      rmSync(join(base, '.git'), { recursive: true });
      expect(await outsideIgnoreRulesMayApply(deep)).toBe(before);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
