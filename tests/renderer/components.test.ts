// @vitest-environment happy-dom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import { freshStudio, giveElementsSize, settle } from './harness';
import { DEMO_ROOT, demoPcx, type FakeStudioApi } from './fake-api';
import { encodePcx8, encodeWav, testPalette } from './pcx-fixture';
import type { Pinia } from 'pinia';
import LayeringPanel from '../../renderer/components/LayeringPanel.vue';
import FilePreviewPanel from '../../renderer/components/FilePreviewPanel.vue';
import JobsPanel from '../../renderer/components/JobsPanel.vue';
import ErrorBanner from '../../renderer/components/ErrorBanner.vue';
import MountOrderList from '../../renderer/components/MountOrderList.vue';
import IgnoredList from '../../renderer/components/IgnoredList.vue';
import VirtualList from '../../renderer/components/VirtualList.vue';
import PathField from '../../renderer/components/PathField.vue';
import { initJobsStore, useJobsStore } from '../../renderer/stores/jobs';
import { useErrorsStore } from '../../renderer/stores/errors';
import type { FilePreview } from '../../shared/contract';

let api: FakeStudioApi;
let pinia: Pinia;

beforeAll(() => giveElementsSize());
beforeEach(() => {
  ({ api, pinia } = freshStudio());
});

function preview(bytes: Uint8Array, path: string, size = bytes.length): FilePreview {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return { path, size, data: btoa(s), truncated: size > bytes.length, archive: 'totala1.hpi' };
}

describe('LayeringPanel', () => {
  it('is a region named Layering that names the winner and each shadowed provider', () => {
    const w = mount(LayeringPanel, {
      props: {
        path: 'units/ARMCOM.FBI',
        loading: false,
        error: null,
        result: {
          path: 'units/ARMCOM.FBI',
          winner: { archive: 'mymod.ufo', entry: 'units/ARMCOM.FBI', size: 2048, method: 'lz77' },
          shadowed: [
            { archive: 'totala1.hpi', entry: 'UNITS/ARMCOM.FBI', size: 1900, method: 'zlib' },
            { archive: null, entry: 'units/armcom.fbi', size: 10, method: 'loose' },
          ],
        },
      },
    });
    const region = w.get('[role="region"][aria-label="Layering"]');
    const winner = region.get('[data-role="winner"]').text();
    expect(winner).toContain('mymod.ufo');
    expect(winner).toContain('2.0 KiB');
    expect(winner).toContain('lz77');
    const shadowed = region.findAll('[data-role="shadowed"]').map((r) => r.text());
    expect(shadowed[0]).toContain('totala1.hpi');
    expect(shadowed[0]).toContain('UNITS/ARMCOM.FBI');
    expect(shadowed[1]).toContain('loose file');
  });

  it('says when nothing provides the path, and shows errors', () => {
    const none = mount(LayeringPanel, {
      props: { path: 'x', loading: false, error: null, result: { path: 'x', winner: null, shadowed: [] } },
    });
    expect(none.text()).toContain('No archive provides this path');
    const failed = mount(LayeringPanel, { props: { path: 'x', loading: false, error: 'x: not allowed', result: null } });
    expect(failed.get('.field-error').text()).toBe('x: not allowed');
  });
});

describe('FilePreviewPanel', () => {
  const mountPreview = (name: string, file: FilePreview) => mount(FilePreviewPanel, { props: { name, file, loading: false, error: null } });

  it('colours TDF/FBI text: sections, keys and values', () => {
    const w = mountPreview(
      'units/ARMCOM.FBI',
      preview(new TextEncoder().encode('[UNITINFO]\n{\n\tMaxDamage=5000;\n}\n'), 'units/ARMCOM.FBI'),
    );
    const text = w.get('[data-testid="text-preview"]');
    expect(text.get('.tok-section').text()).toBe('[UNITINFO]');
    expect(text.get('.tok-key').text()).toBe('MaxDamage');
    expect(text.get('.tok-value').text()).toBe('5000');
    expect(text.text()).toContain('MaxDamage=5000;');
  });

  it('decodes text as Windows-1252 (as the game wrote it)', () => {
    const w = mountPreview('readme.txt', preview(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]), 'readme.txt'));
    expect(w.get('[data-testid="text-preview"]').text()).toBe('Café €');
  });

  it('shows a hex dump for unknown types and on request for any file', async () => {
    const w = mountPreview('anims/logo.gaf', preview(new Uint8Array([0x00, 0x01, 0x41, 0x42]), 'anims/logo.gaf'));
    expect(w.get('[data-testid="hex-view"]').text()).toBe('00000000  00 01 41 42' + ' '.repeat(38) + ' ..AB');
    const t = mountPreview('units/A.FBI', preview(new TextEncoder().encode('[A]'), 'units/A.FBI'));
    await t.get('button[aria-pressed="false"]').trigger('click');
    expect(t.get('[data-testid="hex-view"]').text()).toContain('5b 41 5d');
  });

  it('draws a PCX on a canvas at its size', () => {
    const w = mountPreview('unitpics/ARMCOM.PCX', preview(demoPcx(), 'unitpics/ARMCOM.PCX'));
    const canvas = w.get('canvas');
    expect(canvas.attributes('data-width')).toBe('4');
    expect(canvas.attributes('data-height')).toBe('2');
    expect(canvas.attributes('aria-label')).toBe('unitpics/ARMCOM.PCX, 4 × 2 PCX');
  });

  it('explains a damaged PCX instead of failing', () => {
    const bytes = encodePcx8(8, 8, new Uint8Array(64), testPalette()).subarray(0, 200);
    const w = mountPreview('x.pcx', preview(bytes, 'x.pcx'));
    expect(w.get('.field-error').text()).toMatch(/^Cannot show this PCX: 8-bit PCX has no 256-colour palette/);
    expect(w.find('canvas').exists()).toBe(false);
  });

  it('plays a WAV with its format described', () => {
    const w = mountPreview('sounds/boom.wav', preview(encodeWav(11025, 22050), 'sounds/boom.wav'));
    expect(w.get('audio').attributes('src')).toMatch(/^blob:/);
    expect(w.get('[data-testid="wav-info"]').text().replace(/\s+/g, ' ')).toBe('PCM, mono, 22050 Hz, 16-bit, 0.50 s');
  });

  it('shows images through a blob URL', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const w = mountPreview('pics/shot.png', preview(png, 'pics/shot.png'));
    expect(w.get('img').attributes('src')).toMatch(/^blob:/);
    expect(w.get('img').attributes('alt')).toBe('pics/shot.png');
  });

  it('says when only the start of a long file is shown', () => {
    const w = mountPreview('big.txt', preview(new TextEncoder().encode('abc'), 'big.txt', 5 << 20));
    expect(w.text()).toContain('Showing the first 3 B of 5.0 MiB');
  });
});

describe('JobsPanel', () => {
  it('shows a progress bar that follows events and a Cancel button that cancels the job', async () => {
    initJobsStore();
    const w = mount(JobsPanel, { global: { plugins: [pinia] } });
    const jobs = useJobsStore();
    const release = api.hold('install.extract');
    const running = jobs.run(
      'Extracting 4 files',
      (jobId) => api.call('install.extract', { root: DEMO_ROOT, paths: ['a', 'b', 'c', 'd'], target: '/t', jobId }),
      () => 'ok',
    );
    await settle(1);
    api.emit('progress', { jobId: jobs.jobs[0]!.id, done: 1, total: 4 });
    await settle(1);
    const bar = w.get('progress[aria-label="Extracting 4 files"]');
    expect((bar.element as HTMLProgressElement).value).toBe(1);
    expect((bar.element as HTMLProgressElement).max).toBe(4);
    expect(w.text()).toContain('1 / 4 (25%)');
    await w.get('button').trigger('click');
    release();
    expect(await running).toBeNull();
    await settle(1);
    expect(api.callsOf('jobs.cancel')).toHaveLength(1);
    expect(w.get('.job').attributes('data-state')).toBe('cancelled');
    expect(w.text()).toContain('Cancelled');
  });
});

describe('ErrorBanner', () => {
  it('shows reported errors as an alert and dismisses them', async () => {
    const w = mount(ErrorBanner, { global: { plugins: [pinia] } });
    expect(w.find('[role="alert"]').exists()).toBe(false);
    useErrorsStore().report(new Error('totala1.hpi: bad marker'), 'Opening');
    await settle(1);
    expect(w.get('[role="alert"]').text()).toContain('Opening: totala1.hpi: bad marker');
    await w.get('button').trigger('click');
    expect(w.find('[role="alert"]').exists()).toBe(false);
  });
});

describe('MountOrderList and IgnoredList', () => {
  it('list each archive with stage, root and file count; and ignored ones with reasons', () => {
    const order = mount(MountOrderList, {
      props: {
        mounted: [
          { archive: 'mymod.ufo', root: 'install', stage: 'ufo', files: 1234 },
          { archive: 'totala1.hpi', root: 'disc', stage: 'hpi', files: 5 },
        ],
      },
    });
    const items = order
      .get('ol[aria-label="Mount order"]')
      .findAll('li')
      .map((li) => [...li.element.children].map((s) => s.textContent?.trim()).join(' '));
    expect(items).toEqual(['1 mymod.ufo ufo install 1,234 files', '2 totala1.hpi hpi disc 5 files']);
    const ignored = mount(IgnoredList, { props: { ignored: [{ archive: 'old/x.ufo', reason: 'in a subfolder' }] } });
    expect(
      ignored
        .get('ul[aria-label="Ignored archives"] li')
        .findAll('span')
        .map((s) => s.text()),
    ).toEqual(['old/x.ufo', 'in a subfolder']);
  });
});

describe('VirtualList', () => {
  const Host = defineComponent({
    props: { count: { type: Number, required: true } },
    data: () => ({ active: -1, keys: [] as string[] }),
    render() {
      return h(
        VirtualList,
        {
          count: this.count,
          label: 'Rows',
          idPrefix: 'r',
          activeIndex: this.active,
          onActivate: (i: number) => (this.active = i),
          onKey: (e: KeyboardEvent) => this.keys.push(e.key),
        },
        { row: ({ index }: { index: number }) => h('span', `row ${index}`) },
      );
    },
  });

  it('renders only the rows in view out of 60,000', async () => {
    const w = mount(Host, { props: { count: 60_000 } });
    await settle(1);
    const rows = w.findAll('[role="option"]');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(100);
    expect(rows[0]!.text()).toBe('row 0');
  });

  it('moves the active row with the keyboard and announces it', async () => {
    const w = mount(Host, { props: { count: 500 } });
    const list = w.get('[role="listbox"]');
    await list.trigger('keydown', { key: 'ArrowDown' });
    await list.trigger('keydown', { key: 'ArrowDown' });
    expect(list.attributes('aria-activedescendant')).toBe('r-1');
    await list.trigger('keydown', { key: 'End' });
    expect(list.attributes('aria-activedescendant')).toBe('r-499');
    await list.trigger('keydown', { key: 'PageUp' });
    expect(Number(list.attributes('aria-activedescendant')!.slice(2))).toBeLessThan(499);
    await list.trigger('keydown', { key: 'Home' });
    expect(list.attributes('aria-activedescendant')).toBe('r-0');
    await list.trigger('keydown', { key: 'Enter' });
    expect((w.vm as unknown as { keys: string[] }).keys).toEqual(['Enter']);
  });
});

describe('PathField', () => {
  it('submits the trimmed path and offers Browse only when the host can pick', async () => {
    const w = mount(PathField, { props: { label: 'Install folder', action: 'Open' } });
    expect(w.findAll('button').map((b) => b.text())).toEqual(['Open']);
    await w.get('input').setValue('  /games/TotalA  ');
    await w.get('form').trigger('submit');
    expect(w.emitted('submit')).toEqual([['/games/TotalA']]);
    const browse = mount(PathField, { props: { label: 'x', action: 'Open', canBrowse: true } });
    await browse.findAll('button')[1]!.trigger('click');
    expect(browse.emitted('browse')).toHaveLength(1);
  });
});
