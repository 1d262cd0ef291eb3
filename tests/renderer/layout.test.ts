// @vitest-environment happy-dom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import type { Pinia } from 'pinia';
import { freshStudio, giveElementsSize, settle } from './harness';
import { DEMO_ROOT } from './fake-api';
import SplitPane from '../../renderer/components/SplitPane.vue';
import ElidedPath from '../../renderer/components/ElidedPath.vue';
import VirtualList from '../../renderer/components/VirtualList.vue';
import ArchiveView from '../../renderer/views/ArchiveView.vue';
import { useArchiveStore } from '../../renderer/stores/archive';
import { useFilesStore } from '../../renderer/stores/files';
import { useInstallStore } from '../../renderer/stores/install';
import { useNavigationStore } from '../../renderer/stores/navigation';
import { nextSort, sortIndices, ariaSort } from '../../renderer/lib/sort-order';
import { TypeAhead, TYPE_AHEAD_RESET_MS } from '../../renderer/lib/type-ahead';
import { formatPlace, parsePlace } from '../../renderer/lib/place';
import { savedSize, sizeAfterKey } from '../../renderer/lib/pane-sizes';
import { startRouting, type RoutingWindow } from '../../renderer/routing';

let pinia: Pinia;
beforeAll(() => giveElementsSize());
beforeEach(() => {
  ({ pinia } = freshStudio());
  localStorage.clear();
});

describe('sorting rows by a column', () => {
  it('orders by the key, reverses, and breaks ties by the given order', () => {
    const sizes = [30, 10, 30, 20];
    expect(sortIndices([0, 1, 2, 3], (i) => sizes[i]!, false)).toEqual([1, 3, 0, 2]);
    expect(sortIndices([0, 1, 2, 3], (i) => sizes[i]!, true)).toEqual([0, 2, 3, 1]);
    const names = ['b.txt', 'A.txt', 'a.txt', 'C.txt'];
    // Without case; equal names keep their stored order.
    expect(sortIndices([0, 1, 2, 3], (i) => names[i]!, false)).toEqual([1, 2, 0, 3]);
  });

  it('orders 60,000 entries: a permutation, each key no less than the one before', () => {
    const n = 60_000;
    const paths = Array.from({ length: n }, (_, i) => `units/set${(i * 7919) % 997}/Unit${(i * 104729) % n}.fbi`);
    const order = sortIndices(
      paths.map((_, i) => i),
      (i) => paths[i]!,
      false,
    );
    expect(new Set(order).size).toBe(n);
    let bad = 0;
    for (let k = 1; k < n; k++) if (paths[order[k - 1]!]!.toLowerCase() > paths[order[k]!]!.toLowerCase()) bad++;
    expect(bad).toBe(0);
  });

  it('a new column sorts ascending, the same one flips; aria-sort follows', () => {
    let state = { key: 'path', descending: false };
    state = nextSort(state, 'path');
    expect(state).toEqual({ key: 'path', descending: true });
    expect(ariaSort(state, 'path')).toBe('descending');
    state = nextSort(state, 'size');
    expect(state).toEqual({ key: 'size', descending: false });
    expect(ariaSort(state, 'size')).toBe('ascending');
    expect(ariaSort(state, 'path')).toBe('none');
  });
});

describe('type-ahead', () => {
  const names = ['anims', 'ARMCOM.FBI', 'ARMSOLAR.FBI', 'CORCOM.FBI', 'readme.txt'];
  const nameOf = (i: number) => names[i]!;

  it('goes to the next name with the typed prefix, longer prefixes refine, and it resets after a pause', () => {
    let now = 0;
    const t = new TypeAhead(() => now);
    expect(t.key('a', names.length, -1, nameOf)).toBe(0);
    now += 100;
    expect(t.key('r', names.length, 0, nameOf)).toBe(1); // "ar"
    now += 100;
    expect(t.key('m', names.length, 1, nameOf)).toBe(1); // "arm" stays on ARMCOM
    now += 100;
    expect(t.key('s', names.length, 1, nameOf)).toBe(2); // "arms"
    now += TYPE_AHEAD_RESET_MS;
    expect(t.key('c', names.length, 2, nameOf)).toBe(3); // a fresh "c"
    now += TYPE_AHEAD_RESET_MS;
    expect(t.key('x', names.length, 3, nameOf)).toBeNull();
  });

  it('repeating a letter cycles through its rows, wrapping at the end', () => {
    let now = 0;
    const t = new TypeAhead(() => now);
    const at: (number | null)[] = [];
    let active = -1;
    for (let i = 0; i < 4; i++) {
      now += 50;
      active = t.key('a', names.length, active, nameOf) ?? active;
      at.push(active);
    }
    expect(at).toEqual([0, 1, 2, 0]);
  });

  it('takes a space only inside a prefix (else the space toggles the row)', () => {
    let now = 0;
    const t = new TypeAhead(() => now);
    expect(t.takes({ key: ' ' })).toBe(false);
    expect(t.takes({ key: 'a', ctrlKey: true })).toBe(false);
    expect(t.takes({ key: 'ArrowDown' })).toBe(false);
    t.key('a', names.length, -1, nameOf);
    now += 10;
    expect(t.takes({ key: ' ' })).toBe(true);
  });

  it('moves the active row of a VirtualList', async () => {
    const active: number[] = [];
    const w = mount(VirtualList, {
      props: { count: names.length, label: 'Names', activeIndex: -1, idPrefix: 'n', nameOf, onActivate: (i: number) => active.push(i) },
    });
    await w.trigger('keydown', { key: 'c' });
    await w.trigger('keydown', { key: 'r' });
    expect(active).toEqual([3]);
    // "cr" matches nothing, but the key is still taken (not passed on to the parent).
    expect(w.emitted('key')).toBeUndefined();
  });
});

describe('places in the URL hash', () => {
  it('round-trip screen, install and path, and refuse hashes that are not places', () => {
    const place = { screen: 'files', install: 'C:\\Games\\Total A', path: 'units/ARM COM#1.FBI' };
    const hash = formatPlace(place);
    expect(hash.startsWith('#/files?')).toBe(true);
    expect(hash).not.toContain(' ');
    expect(parsePlace(hash)).toEqual(place);
    expect(parsePlace(formatPlace({ screen: 'archive', archive: '/g/totala1.hpi', path: 'units/x' }))).toEqual({
      screen: 'archive',
      archive: '/g/totala1.hpi',
      path: 'units/x',
    });
    expect(parsePlace('')).toBeNull();
    expect(parsePlace('#section')).toBeNull();
    expect(parsePlace('#/%E0%A4%A')).toBeNull();
  });
});

describe('SplitPane', () => {
  const mountSplit = () =>
    mount(SplitPane, {
      props: { storageKey: 'test', label: 'Resize', initial: 40, min: 20, max: 80 },
      slots: { first: '<div class="a">A</div>', second: '<div class="b">B</div>' },
    });

  it('is a separator with its value, moved by the keys and remembered across a remount', async () => {
    const w = mountSplit();
    const sep = w.get('[role="separator"]');
    expect(sep.attributes()).toMatchObject({
      'aria-valuenow': '40',
      'aria-valuemin': '20',
      'aria-valuemax': '80',
      'aria-orientation': 'vertical',
      'aria-label': 'Resize',
      tabindex: '0',
    });
    await sep.trigger('keydown', { key: 'ArrowRight' });
    await sep.trigger('keydown', { key: 'ArrowRight' });
    expect(sep.attributes('aria-valuenow')).toBe('44');
    await sep.trigger('keydown', { key: 'PageUp' });
    expect(sep.attributes('aria-valuenow')).toBe('34');
    await sep.trigger('keydown', { key: 'End' });
    expect(sep.attributes('aria-valuenow')).toBe('80');
    expect((w.element as HTMLElement).style.gridTemplateColumns).toBe('minmax(0, 80fr) auto minmax(0, 20fr)');
    w.unmount();
    expect(mountSplit().get('[role="separator"]').attributes('aria-valuenow')).toBe('80');
  });

  it("follows a drag (the pointer's share of the box) and saves it on release", async () => {
    const w = mountSplit();
    (w.element as HTMLElement).getBoundingClientRect = () => ({
      left: 100,
      top: 0,
      width: 1000,
      height: 500,
      right: 1100,
      bottom: 500,
      x: 100,
      y: 0,
      toJSON: () => ({}),
    });
    const sep = w.get('[role="separator"]');
    await sep.trigger('pointerdown', { button: 0, pointerId: 1, clientX: 500 });
    await sep.trigger('pointermove', { pointerId: 1, clientX: 700 });
    expect(sep.attributes('aria-valuenow')).toBe('60');
    expect(savedSize('test', -1, 0, 100)).toBe(-1);
    await sep.trigger('pointerup', { pointerId: 1, clientX: 700 });
    expect(savedSize('test', -1, 0, 100)).toBe(60);
    // Past the end: held at the maximum.
    await sep.trigger('pointerdown', { button: 0, pointerId: 1 });
    await sep.trigger('pointermove', { pointerId: 1, clientX: 1090 });
    expect(sep.attributes('aria-valuenow')).toBe('80');
  });

  it('vertical splits take Up and Down, and a stored value out of range is clamped', () => {
    expect(sizeAfterKey('ArrowDown', 50, 10, 90, true)).toBe(52);
    expect(sizeAfterKey('ArrowRight', 50, 10, 90, true)).toBeNull();
    localStorage.setItem('modpak.split.x', '99');
    expect(savedSize('x', 50, 10, 90)).toBe(90);
    localStorage.setItem('modpak.split.x', 'wide');
    expect(savedSize('x', 50, 10, 90)).toBe(50);
  });
});

describe('ElidedPath', () => {
  it('keeps the file name apart from its folders, the full path as the tooltip and text', () => {
    const w = mount(ElidedPath, { props: { path: 'maps/a/very/deep/folder/Great Divide.ota' } });
    expect(w.attributes('title')).toBe('maps/a/very/deep/folder/Great Divide.ota');
    expect(w.get('.elided-head').attributes('data-text')).toBe('maps/a/very/deep/folder/');
    expect(w.get('.elided-tail').attributes('data-text')).toBe('Great Divide.ota');
    expect(w.text()).toBe('maps/a/very/deep/folder/Great Divide.ota');
    // What a screen reader reads: the whole path once (the visible halves are hidden from it).
    expect(w.get('.sr-only').text()).toBe('maps/a/very/deep/folder/Great Divide.ota');
    expect(w.findAll('[aria-hidden="true"]').map((e) => e.classes()[0])).toEqual(['elided-head', 'elided-tail']);
    expect(
      mount(ElidedPath, { props: { path: 'readme.txt' } })
        .find('.elided-head')
        .exists(),
    ).toBe(false);
    expect(
      mount(ElidedPath, { props: { path: 'C:\\games\\TA' } })
        .get('.elided-tail')
        .attributes('data-text'),
    ).toBe('TA');
  });
});

describe('ArchiveView columns', () => {
  it('sorts the entries by each column, reverses on a second click, and sets aria-sort', async () => {
    const w = mount(ArchiveView, { global: { plugins: [pinia] } });
    await useArchiveStore().open('/games/TotalA/totala1.hpi');
    await settle();
    const paths = () => w.findAll('[role="option"] .elided-path').map((e) => e.attributes('title'));
    const header = (label: string) => w.findAll('[role="columnheader"]').find((h) => h.text().startsWith(label))!;
    expect(paths()).toEqual(['units', 'units/ARMCOM.FBI', 'unitpics/ARMCOM.PCX', 'anims/logo.gaf']);
    expect(header('#').attributes('aria-sort')).toBe('ascending');
    await header('Path').get('button').trigger('click');
    expect(paths()).toEqual(['anims/logo.gaf', 'unitpics/ARMCOM.PCX', 'units', 'units/ARMCOM.FBI']);
    expect(header('Path').attributes('aria-sort')).toBe('ascending');
    expect(header('#').attributes('aria-sort')).toBe('none');
    await header('Path').get('button').trigger('click');
    expect(header('Path').attributes('aria-sort')).toBe('descending');
    expect(paths()).toEqual(['units/ARMCOM.FBI', 'units', 'unitpics/ARMCOM.PCX', 'anims/logo.gaf']);
    // Sizes from the fake's listing: units (a folder) first, then 6, 100 and the PCX's bytes.
    await header('Size').get('button').trigger('click');
    expect(paths()[0]).toBe('units');
    expect(paths()[1]).toBe('anims/logo.gaf');
    await header('Packed').get('button').trigger('click');
    expect(paths()).toEqual(['units', 'anims/logo.gaf', 'units/ARMCOM.FBI', 'unitpics/ARMCOM.PCX']);
    await header('Method').get('button').trigger('click');
    expect(paths()).toEqual(['units', 'unitpics/ARMCOM.PCX', 'anims/logo.gaf', 'units/ARMCOM.FBI']);
    expect(w.text()).toContain('by method');
    // The selection follows its entry, wherever the sort puts it.
    useArchiveStore().select(1);
    await settle();
    expect(w.get('[role="option"][aria-selected="true"] .elided-path').attributes('title')).toBe('units/ARMCOM.FBI');
  });
});

/** A window whose history is a list of hashes, as the browser's is for one page. */
class FakeWindow implements RoutingWindow {
  entries: string[] = [];
  at = 0;
  private listeners = new Set<() => void>();
  constructor(hash: string) {
    this.entries = [hash];
  }
  readonly location = {
    get hash() {
      return '';
    },
  } as { hash: string };
  readonly history = {
    pushState: (_d: unknown, _u: string, url: string) => {
      this.entries = [...this.entries.slice(0, this.at + 1), url];
      this.at++;
    },
    replaceState: (_d: unknown, _u: string, url: string) => {
      this.entries[this.at] = url;
    },
  };
  init(): this {
    Object.defineProperty(this.location, 'hash', { get: () => this.entries[this.at] ?? '' });
    return this;
  }
  addEventListener(_t: 'hashchange', l: () => void): void {
    this.listeners.add(l);
  }
  removeEventListener(_t: 'hashchange', l: () => void): void {
    this.listeners.delete(l);
  }
  go(step: number): void {
    this.at += step;
    for (const l of this.listeners) l();
  }
}

describe('routing', () => {
  it('starts at the place of the URL, pushes new screens, and Back / Forward show them again', async () => {
    const win = new FakeWindow(formatPlace({ screen: 'files', install: DEMO_ROOT, path: 'units/ARMCOM.FBI' })).init();
    const stop = await startRouting(win);
    await settle();
    const nav = useNavigationStore();
    const files = useFilesStore();
    expect(useInstallStore().root).toBe(DEMO_ROOT);
    expect(nav.current).toBe('files');
    expect(files.activeRow?.path).toBe('units/ARMCOM.FBI');
    expect(parsePlace(win.location.hash)).toEqual({ screen: 'files', install: DEMO_ROOT, path: 'units/ARMCOM.FBI' });

    // Another file on the same screen replaces the entry; another screen is a new one.
    files.reveal('units/CORCOM.FBI');
    await settle();
    expect(win.entries).toHaveLength(1);
    expect(parsePlace(win.location.hash)?.path).toBe('units/CORCOM.FBI');
    nav.go('search');
    await settle();
    expect(win.entries).toHaveLength(2);
    expect(parsePlace(win.location.hash)).toEqual({ screen: 'search', install: DEMO_ROOT });

    win.go(-1);
    await settle();
    expect(nav.current).toBe('files');
    expect(files.activeRow?.path).toBe('units/CORCOM.FBI');
    win.go(1);
    await settle();
    expect(nav.current).toBe('search');
    expect(win.entries).toHaveLength(2);
    stop();
  });

  it("opens the host's initial install when the linked one no longer opens", async () => {
    const win = new FakeWindow(formatPlace({ screen: 'home', install: '/gone' })).init();
    const stop = await startRouting(win);
    await settle();
    expect(useInstallStore().root).toBe(DEMO_ROOT);
    expect(parsePlace(win.location.hash)).toEqual({ screen: 'home', install: DEMO_ROOT });
    stop();
  });
});
