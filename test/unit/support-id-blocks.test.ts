/** The registry of integration id blocks (test/support/id-blocks.ts): disjoint, and complete. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockFiles, idBlock, legacyRanges } from '../support/id-blocks';

const ranges = [
  ...blockFiles.map((f) => ({ owner: f, range: [idBlock(f).first, idBlock(f).last] as [number, number] })),
  ...Object.entries(legacyRanges).flatMap(([owner, rs]) => rs.map((range) => ({ owner, range }))),
];

describe('integration id blocks', () => {
  it('are disjoint: no two files (blocks or the legacy ranges) share an id', () => {
    for (const [i, a] of ranges.entries()) {
      for (const b of ranges.slice(i + 1)) {
        const overlap = a.range[0] <= b.range[1] && b.range[0] <= a.range[1];
        expect(overlap, `${a.owner} ${a.range} and ${b.owner} ${b.range}`).toBe(false);
      }
    }
    expect(new Set(blockFiles).size).toBe(blockFiles.length);
  });

  it('list every integration test file, each once', () => {
    const files = readdirSync(new URL('../integration/', import.meta.url))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.test\.ts$/, ''));
    const listed = [...blockFiles, ...Object.keys(legacyRanges)];
    expect(listed.sort()).toEqual(files.sort());
  });

  it("hand out a file's ids in order and refuse a file without a block", () => {
    const block = idBlock('file:///x/test/integration/setup.test.ts');
    expect([block.next(), block.next()]).toEqual([block.first, block.first + 1]);
    expect(idBlock('setup').first).toBe(block.first);
    expect(() => idBlock('nowhere')).toThrow('nowhere has no id block');
  });
});
