// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenizeBos } from '../../renderer/codecs/bos-tokens';
import TextPreview from '../../renderer/components/TextPreview.vue';

describe('BOS syntax colours', () => {
  it('colours keywords, directives, literals, strings and comments', () => {
    const [directive, piece, turn, open, close] = tokenizeBos(
      '#include "exptype.h" // flags\npiece base;\nturn base to y-axis <90.5> speed [2];\n/* a\nb */ x-ray',
    );
    expect(directive).toEqual([
      { kind: 'directive', text: '#include "exptype.h" ' },
      { kind: 'comment', text: '// flags' },
    ]);
    expect(piece!.filter((t) => t.kind === 'keyword').map((t) => t.text)).toEqual(['piece']);
    expect(turn!.filter((t) => t.kind === 'keyword').map((t) => t.text)).toEqual(['turn', 'to', 'y-axis', 'speed']);
    expect(turn!.filter((t) => t.kind === 'number').map((t) => t.text)).toEqual(['<90.5>', '[2]']);
    expect(open!.every((t) => t.kind === 'comment')).toBe(true);
    // After the comment closes, x-ray is no keyword: the word x, a minus, the word ray.
    expect(close!.map((t) => [t.kind, t.text])).toEqual([
      ['comment', 'b */'],
      ['text', ' '],
      ['text', 'x'],
      ['punct', '-'],
      ['text', 'ray'],
    ]);
  });

  it('is lossless on every sample BOS: the tokens of each line spell the line', () => {
    // The samples sit beside the clone (tests run from its root).
    const dir = join(process.cwd(), '..', 'shared', 'samples', 'ta', 'scripts');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.bos'))) {
      const text = readFileSync(join(dir, file), 'latin1');
      const lines = tokenizeBos(text);
      expect(lines.map((l) => l.map((t) => t.text).join('')).join('\n')).toBe(text.replace(/\r\n/g, '\n'));
    }
  });

  it('TextPreview shows BOS with keyword spans when bos is set', () => {
    const w = mount(TextPreview, { props: { text: 'while( TRUE ) { sleep 100; }', tdf: false, bos: true } });
    expect(w.findAll('.tok-keyword').map((s) => s.text())).toEqual(['while', 'TRUE', 'sleep']);
    expect(w.find('[data-testid="text-preview"]').text()).toBe('while( TRUE ) { sleep 100; }');
  });
});
