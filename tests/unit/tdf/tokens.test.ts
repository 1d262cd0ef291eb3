import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withArchive } from '../../../electron/formats/index.js';
import { isTdfSyntax } from '../../../shared/file-kinds.js';
import { decodeTdf, parseTdf } from '../../../shared/tdf/parse.js';
import { tokenizeTdf } from '../../../shared/tdf/tokens.js';
import { samplesDir } from '../../helpers/run-cli.js';

/** Every TDF-syntax file inside the sample archives, as text. */
async function sampleTdfTexts(): Promise<{ name: string; text: string }[]> {
  const out: { name: string; text: string }[] = [];
  const dir = join(samplesDir, 'hpi');
  for (const file of readdirSync(dir)) {
    await withArchive(join(dir, file), async (archive) => {
      for (const entry of archive.entries) {
        if (!entry.dir && isTdfSyntax(entry.path)) out.push({ name: `${file}:${entry.path}`, text: decodeTdf(await archive.read(entry)) });
      }
    });
  }
  return out;
}

describe("the TDF tokeniser (shared/tdf/tokens.ts, the studio's colours)", () => {
  it('agrees with the parser on every sample TDF/FBI: the keys it colours are the keys parseTdf reads, and it loses nothing', async () => {
    const texts = await sampleTdfTexts();
    expect(texts.length).toBeGreaterThan(5);
    for (const { name, text } of texts) {
      const lines = tokenizeTdf(text);
      expect(lines.map((l) => l.map((t) => t.text).join('')).join('\n'), name).toBe(text.replace(/\r\n/g, '\n'));
      const doc = parseTdf(text);
      const parsed: string[] = [];
      const walk = (sections: typeof doc.sections) => {
        for (const s of sections) {
          // Entries and sub-sections interleave in the text; order them by line, entries before a header on the same line.
          const items: { line: number; keys: string[]; sub?: (typeof doc.sections)[number] }[] = [
            ...s.entries.map((e) => ({ line: e.line, keys: [e.key] })),
            ...s.sections.map((sub) => ({ line: sub.line, keys: [], sub })),
          ];
          items.sort((a, b) => a.line - b.line);
          for (const item of items) {
            parsed.push(...item.keys);
            if (item.sub) walk([item.sub]);
          }
        }
      };
      walk(doc.sections);
      const coloured = lines.flatMap((l) => l.filter((t) => t.kind === 'key').map((t) => t.text.trim()));
      expect(coloured, name).toEqual(parsed);
    }
  });

  it('colours sections, braces, keys, values and comments across lines', () => {
    const lines = tokenizeTdf('[A]{x=1; /* c\nstill */ y = 2;}');
    const kinds = lines.map((l) => l.filter((t) => t.kind !== 'text').map((t) => `${t.kind}:${t.text}`));
    expect(kinds).toEqual([
      ['section:[A]', 'brace:{', 'key:x', 'punct:=', 'value:1', 'punct:;', 'comment:/*', 'comment: c'],
      ['comment:still */', 'key:y', 'punct: = ', 'value:2', 'punct:;', 'brace:}'],
    ]);
  });
});
