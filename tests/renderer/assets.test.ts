// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';
import AssetViewer from '../../renderer/components/assets/AssetViewer.vue';
import { previewKindOf, previewKindLabel } from '../../renderer/lib/file-kinds';
import { assetRequest } from '../../renderer/lib/asset-view';
import type { AssetView, ImagesView } from '../../shared/assets/view';
import { palView } from '../../shared/assets/ta/pal';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shared samples beside the clone (tests run from its root). */
const samplesDir = join(process.cwd(), '..', 'shared', 'samples');

const image = (w: number, h: number, v: number) => ({ width: w, height: h, rgba: new Uint8Array(w * h * 4).fill(v) });

const gafLike: ImagesView = {
  kind: 'images',
  format: 'GAF (TA)',
  facts: [{ label: 'Sequences', value: '2' }],
  warnings: ['header third field is 0x5, not 0'],
  palette: 'palettes/PALETTE.PAL from totala1.hpi',
  groups: [
    {
      name: 'boom',
      frames: [{ image: image(4, 3, 10), durationMs: 67 }, { image: image(4, 3, 20) }, { image: image(5, 5, 30), label: '2 layers' }],
    },
    { name: 'still', frames: [{ image: image(2, 2, 40) }] },
  ],
};

describe('AssetViewer', () => {
  it('pictures: sequences, frame counter, strip, stepping, facts, warnings and the palette name', async () => {
    const w = mount(AssetViewer, { props: { view: gafLike, name: 'BOOM.gaf', origin: 'anims/BOOM.gaf from totala1.hpi' } });
    expect(w.get('[data-testid="asset-format"]').text()).toBe('GAF (TA)');
    expect(w.get('[data-testid="asset-palette"]').text()).toContain('palettes/PALETTE.PAL from totala1.hpi');
    expect(w.text()).toContain('header third field');
    expect(w.findAll('ul[aria-label="Sequences"] button')).toHaveLength(2);
    expect(w.get('[data-testid="frame-counter"]').text()).toBe('1 / 3');
    expect(w.get('[data-testid="asset-canvas"]').attributes('data-width')).toBe('4');
    expect(w.findAll('[role="option"]')).toHaveLength(3);
    await w.get('button[aria-label="Next frame"]').trigger('click');
    await w.get('button[aria-label="Next frame"]').trigger('click');
    expect(w.get('[data-testid="frame-counter"]').text()).toBe('3 / 3');
    expect(w.get('[data-testid="asset-canvas"]').attributes('data-width')).toBe('5');
    expect(w.get('[data-testid="frame-label"]').text()).toContain('2 layers');
    await w.findAll('ul[aria-label="Sequences"] button')[1]!.trigger('click');
    expect(w.get('[data-testid="frame-counter"]').text()).toBe('1 / 1');
    expect(w.get('[data-testid="play"]').attributes('disabled')).toBeDefined();
  });

  it('zooms in steps (a small picture starts large), and a new view starts at its first frame with a fitting zoom', async () => {
    const w = mount(AssetViewer, { props: { view: gafLike, name: 'x' } });
    const zoom = () => w.get('[data-testid="zoom"]').text();
    const before = parseInt(zoom(), 10);
    await w.get('button[aria-label="Zoom out"]').trigger('click');
    expect(parseInt(zoom(), 10)).toBeLessThan(before);
    await w.get('button[aria-label="Zoom in"]').trigger('click');
    expect(parseInt(zoom(), 10)).toBe(before);
    await w.setProps({ view: { ...gafLike, groups: [{ name: 'big', frames: [{ image: image(300, 10, 1) }] }] } });
    await nextTick();
    expect(zoom()).toBe('1×');
  });

  it('BOS text is coloured by keyword; a model gets the model viewer, which names its missing textures', () => {
    const bos: AssetView = {
      kind: 'text',
      language: 'bos',
      format: 'COB script',
      facts: [],
      warnings: [],
      text: '#include "sfxtype.h"\npiece base, turret;\nCreate()\n{\n  turn turret to y-axis <90> speed <30>; // aim\n}',
    };
    const w = mount(AssetViewer, { props: { view: bos, name: 'x.cob' } });
    expect(w.findAll('.tok-keyword').map((s) => s.text())).toEqual(['piece', 'turn', 'to', 'y-axis', 'speed']);
    expect(w.get('.tok-directive').text()).toBe('#include "sfxtype.h"');
    expect(w.get('.tok-comment').text()).toBe('// aim');
    const model: AssetView = {
      kind: 'model',
      format: '3DO model',
      facts: [{ label: 'Pieces', value: '1' }],
      warnings: [],
      missingTextures: ['ArmSkin'],
      mesh: { up: 'y', materials: [], pieces: [{ name: 'base', parent: null, offset: [0, 0, 0], primitives: [] }] },
    };
    const m = mount(AssetViewer, { props: { view: model, name: 'x.3do' } });
    expect(m.findAll('.model-missing-name').map((n) => n.text())).toEqual(['ArmSkin']);
    expect(m.text()).toContain('Pieces');
  });
});

describe('a palette swatch names the index under the pointer', () => {
  it('the real PALETTE.PAL: index and RGB of the cell pointed at, read from the file itself', async () => {
    const file = new Uint8Array(readFileSync(join(samplesDir, 'ta', 'palettes', 'PALETTE.PAL')));
    const view = palView('PALETTE.PAL', file);
    const w = mount(AssetViewer, { props: { view, name: 'PALETTE.PAL' } });
    const canvas = w.get('[data-testid="asset-canvas"]');
    const hover = () => w.get('[data-testid="swatch-hover"]').text();
    expect(hover()).toContain('Point at a colour');
    // Unlaid-out (happy-dom), the 16-pixel swatch is shown at its nominal size: 16 × zoom pixels a side.
    const cell = (16 * parseInt(w.get('[data-testid="zoom"]').text(), 10)) / 16;
    for (const [column, row] of [
      [0, 0],
      [5, 2],
      [15, 15],
      [9, 13],
    ] as const) {
      await canvas.trigger('mousemove', { clientX: column * cell + cell / 2, clientY: row * cell + cell / 2 });
      const index = row * 16 + column;
      const [r, g, b] = [file[index * 4]!, file[index * 4 + 1]!, file[index * 4 + 2]!];
      const hex = '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
      expect(hover()).toBe(`Index ${index} · RGB ${r}, ${g}, ${b} · ${hex}`);
    }
    await canvas.trigger('mouseleave');
    expect(hover()).toContain('Point at a colour');
  });

  it('a picture that is not a swatch has no index line', () => {
    const w = mount(AssetViewer, { props: { view: gafLike, name: 'BOOM.gaf' } });
    expect(w.find('[data-testid="swatch-hover"]').exists()).toBe(false);
  });
});

describe('asset plumbing in the renderer', () => {
  it('asset files get the asset preview; its tab says the format', () => {
    expect(['anims/X.GAF', 'palettes/PALETTE.PAL', 'objects3d/A.3do', 'scripts/a.cob', 'maps/x.tnt'].map(previewKindOf)).toEqual([
      'asset',
      'asset',
      'asset',
      'asset',
      'asset',
    ]);
    expect(previewKindOf('units/A.fbi')).toBe('tdf');
    expect(previewKindLabel('asset', 'anims/x.gaf')).toBe('GAF');
  });

  it('asset.view requests: the winner, a provider (null = loose), an archive entry', () => {
    expect(assetRequest({ kind: 'install', root: '/ta', path: 'a.gaf' })).toEqual({ root: '/ta', path: 'a.gaf' });
    expect(assetRequest({ kind: 'install', root: '/ta', path: 'a.gaf', archive: null })).toEqual({
      root: '/ta',
      path: 'a.gaf',
      archive: null,
    });
    expect(assetRequest({ kind: 'archive', archive: '/x.hpi', entry: 'a.gaf' })).toEqual({ file: '/x.hpi', entry: 'a.gaf' });
  });
});

describe('unit links', () => {
  it("an FBI's Objectname and UnitName give its model, script, build picture and button, where present", async () => {
    const { unitLinks } = await import('../../renderer/lib/unit-links');
    const fbi = '[UNITINFO]\r\n\t{\r\n\tUnitName=ARMIMR;\r\n\tObjectname = ArmImr ;\r\n\t}\r\n';
    const present = ['objects3d/ARMIMR.3do', 'scripts/armimr.cob', 'anims/ARMIMR_gadget.gaf'];
    const has = (p: string) => present.find((q) => q.toLowerCase() === p.toLowerCase()) ?? null;
    expect(unitLinks(fbi, has)).toEqual([
      { label: 'Model', path: 'objects3d/ARMIMR.3do' },
      { label: 'Script', path: 'scripts/armimr.cob' },
      { label: 'Build button', path: 'anims/ARMIMR_gadget.gaf' },
    ]);
    expect(unitLinks('[UNITINFO]{Objectname=../../x;}', () => 'y')).toEqual([]);
  });
});
