// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ModelViewer from '../../renderer/components/assets/ModelViewer.vue';
import { threeDoView, decode3do } from '../../shared/assets/ta/3do-asset';
import { aliasView, type DecodedAlias } from '../../shared/assets/quake/model-asset';
import { aliasToMesh, type AliasModel } from '../../shared/assets/quake/alias';
import type { AssetContext } from '../../shared/assets/registry';
import type { ModelView } from '../../shared/assets/view';
import { settle } from './harness';

const samples = join(__dirname, '../../../shared/samples');
const noInstall: AssetContext = {
  palette: async () => Promise.reject(new Error('none')),
  readFile: async () => null,
  list: async () => [],
};

async function armimrView(): Promise<ModelView> {
  const bytes = new Uint8Array(readFileSync(join(samples, 'ta/armimr/objects3d/ARMIMR.3do')));
  return threeDoView(await decode3do('ARMIMR.3do', bytes, noInstall));
}

function animatedView(): ModelView {
  const vertices = (z: number) => new Float32Array([0, 0, z, 1, 0, z, 0, 1, z]);
  const model: AliasModel = {
    format: 'md2',
    header: { skins: 0, frames: 3, vertices: 3, triangles: 1 },
    skins: [],
    frames: [0, 1, 2].map((z) => ({ name: `run${z}`, vertices: vertices(z) })),
    triangles: new Uint32Array([0, 1, 2]),
    uvs: new Float32Array(6),
  };
  const decoded: DecodedAlias = { model, info: { format: 'md2', ...model.header }, mesh: aliasToMesh(model, 'runner'), missingSkins: [] };
  return aliasView(decoded);
}

describe('ModelViewer', () => {
  it('lists the pieces as a tree (depth by parent), names the missing textures, and says when WebGL is absent', async () => {
    const view = await armimrView();
    const wrapper = mount(ModelViewer, { props: { view } });
    await settle();
    const items = wrapper.findAll('[role="treeitem"]');
    expect(items.map((i) => i.attributes('data-piece'))).toEqual(view.mesh.pieces.map((p) => p.name));
    // body is base's child, bars is body's child: deeper pieces are indented further.
    const pad = (i: number) => parseInt(items[i]!.attributes('style')!.match(/padding-left: (\d+)px/)![1]!, 10);
    expect(pad(1)).toBeGreaterThan(pad(0));
    expect(pad(2)).toBeGreaterThan(pad(1));
    expect(wrapper.findAll('.model-missing-name').map((n) => n.text())).toEqual(view.missingTextures);
    // happy-dom has no WebGL: the viewer says so instead of throwing.
    await vi.waitFor(() => expect(wrapper.find('.model-gl-error').exists()).toBe(true), { timeout: 20_000 });
    expect(wrapper.find('canvas').attributes('data-ready')).toBe('false');
    expect(wrapper.attributes('data-triangles')).toBe(
      String(view.mesh.pieces.reduce((n, p) => n + p.primitives.reduce((m, q) => m + q.positions.length / 9, 0), 0)),
    );
    wrapper.unmount();
  });

  it('selects a piece on click (and unselects on a second click); the wireframe box toggles', async () => {
    const wrapper = mount(ModelViewer, { props: { view: await armimrView() } });
    await settle();
    const body = wrapper.find('[data-piece="body"]');
    await body.trigger('click');
    expect(body.attributes('aria-selected')).toBe('true');
    expect(wrapper.findAll('[aria-selected="true"]')).toHaveLength(1);
    await body.trigger('click');
    expect(body.attributes('aria-selected')).toBe('false');
    const box = wrapper.find('input[name="wireframe"]');
    await box.setValue(true);
    expect((box.element as HTMLInputElement).checked).toBe(true);
    expect(wrapper.find('.model-frames').exists()).toBe(false);
    wrapper.unmount();
  });

  it('an animated model has a frame slider over its frames, with the frame name', async () => {
    const wrapper = mount(ModelViewer, { props: { view: animatedView() } });
    await settle();
    const slider = wrapper.find('input[type="range"]');
    expect(slider.attributes('max')).toBe('2');
    await slider.setValue('2');
    expect(wrapper.find('canvas').attributes('data-frame')).toBe('2');
    expect(wrapper.find('.model-frames').text()).toContain('run2');
    await wrapper.find('.model-play').trigger('click');
    expect(wrapper.find('.model-play').attributes('aria-pressed')).toBe('true');
    await wrapper.find('.model-play').trigger('click');
    wrapper.unmount();
  });
});
