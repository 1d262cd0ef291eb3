// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { freshStudio, settle } from './harness';
import { DEMO_ROOT, type FakeStudioApi } from './fake-api';
import { initAppStore, useAppStore } from '../../renderer/stores/app';
import { useInstallStore } from '../../renderer/stores/install';
import { useFilesStore } from '../../renderer/stores/files';
import { useLayeringStore } from '../../renderer/stores/layering';
import { useFilesPreviewStore } from '../../renderer/stores/preview';
import { initJobsStore, useJobsStore } from '../../renderer/stores/jobs';
import { useErrorsStore } from '../../renderer/stores/errors';
import { useDefinitionsStore } from '../../renderer/stores/definitions';
import { useArchiveStore } from '../../renderer/stores/archive';
import { base64ToBytes } from '../../renderer/lib/bytes';

let api: FakeStudioApi;

beforeEach(() => {
  ({ api } = freshStudio({ extraPaths: 3000 }));
});

describe('app and install stores', () => {
  it('opens the initial install on start and lists recent ones', async () => {
    await initAppStore();
    await settle();
    const install = useInstallStore();
    expect(useAppStore().info?.host).toBe('web');
    expect(api.callsOf('install.open')).toEqual([{ root: DEMO_ROOT }]);
    expect(install.root).toBe(DEMO_ROOT);
    expect(install.gameName).toBe('Total Annihilation');
    expect(install.opened?.mounted.map((m) => `${m.stage}:${m.archive}`)).toEqual(['ufo:mymod.ufo', 'hpi:totala2.hpi', 'hpi:totala1.hpi']);
    expect(install.opened?.ignored.map((i) => i.archive)).toEqual(['backup/old.ufo', 'broken.hpi']);
    expect(install.recent).toContain('/games/Kingdoms');
  });

  it('does not open anything when the host names no initial install', async () => {
    ({ api } = freshStudio({ initialRoot: null }));
    await initAppStore();
    expect(api.callsOf('install.open')).toEqual([]);
    expect(useInstallStore().root).toBeNull();
  });

  it('reports a failed open next to the field (not again in the banner), keeping the previous install', async () => {
    const install = useInstallStore();
    await install.open(DEMO_ROOT);
    expect(await install.open('/nowhere')).toBe(false);
    expect(install.openError).toMatch(/\/nowhere: no game install found/);
    expect(useErrorsStore().notices).toEqual([]);
    expect(install.root).toBe(DEMO_ROOT);
    expect(await install.open('   ')).toBe(false);
    expect(install.openError).toMatch(/Type the folder/);
  });

  it('reports an unreachable host instead of failing silently', async () => {
    api.fail('app.info', 'connection refused');
    await initAppStore();
    expect(useAppStore().ready).toBe(true);
    expect(useErrorsStore().notices[0]!.message).toBe('connection refused');
  });
});

describe('errors store', () => {
  it('the same failure twice is one notice, not a stack of copies', () => {
    const errors = useErrorsStore();
    errors.report('the host is gone', 'Reading');
    errors.report('something else', 'Reading');
    errors.report('the host is gone', 'Reading');
    expect(errors.notices.map((n) => n.message)).toEqual(['something else', 'the host is gone']);
  });
});

describe('files store', () => {
  beforeEach(async () => {
    await useInstallStore().open(DEMO_ROOT);
    await useFilesStore().ensureLoaded();
  });

  it('loads the merged tree once per install and shows top-level folders', async () => {
    const files = useFilesStore();
    expect(files.totalPaths).toBe(6 + 3000);
    expect(files.rows.map((r) => r.name)).toEqual(['anims', 'maps', 'sounds', 'unitpics', 'units', 'readme.txt']);
    await files.ensureLoaded();
    expect(api.callsOf('install.tree')).toHaveLength(1);
  });

  it('filters by glob and by name', () => {
    const files = useFilesStore();
    files.query = '*.fbi';
    expect(files.rows.map((r) => r.path)).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI']);
    files.query = 'map299';
    expect(files.rows.map((r) => r.path)).toEqual([
      'maps/set0/map299.ota',
      ...Array.from({ length: 10 }, (_, i) => `maps/set2/map299${i}.ota`),
    ]);
    files.query = '';
    expect(files.rows).toHaveLength(6);
  });

  it('selecting a file resolves its layering and loads its preview', async () => {
    const files = useFilesStore();
    files.query = 'armcom.fbi';
    files.select(files.rows[0]!);
    await settle();
    expect(api.callsOf('install.resolve')).toEqual([{ root: DEMO_ROOT, path: 'units/ARMCOM.FBI' }]);
    const layering = useLayeringStore();
    expect(layering.result?.winner?.archive).toBe('mymod.ufo');
    expect(layering.result?.shadowed.map((p) => p.archive)).toEqual(['totala1.hpi']);
    const preview = useFilesPreviewStore();
    expect(new TextDecoder().decode(base64ToBytes(preview.file!.data))).toContain('MaxDamage=9000;');
  });

  it('keeps the newest selection when an older answer arrives late', async () => {
    const files = useFilesStore();
    files.query = '*.fbi';
    const release = api.hold('install.resolve');
    files.select(files.rows[0]!);
    files.select(files.rows[1]!);
    release();
    await settle();
    expect(useLayeringStore().result?.path).toBe('units/CORCOM.FBI');
  });

  it('expands folders and reveals a path', () => {
    const files = useFilesStore();
    files.toggle(files.rows.find((r) => r.name === 'units')!);
    expect(files.rows.map((r) => r.name)).toContain('CORCOM.FBI');
    files.query = 'boom';
    files.reveal('SOUNDS/BOOM.WAV');
    expect(files.query).toBe('');
    expect(files.activeRow?.path).toBe('sounds/boom.wav');
  });

  it('extracts the selected folder with progress, and the result summary', async () => {
    initJobsStore();
    const files = useFilesStore();
    files.select(files.rows.find((r) => r.name === 'units')!);
    expect(files.extractPaths.sort()).toEqual(['units/ARMCOM.FBI', 'units/CORCOM.FBI']);
    const seen: number[] = [];
    api.on('progress', (p) => seen.push(p.done));
    expect(await files.extract('/tmp/out')).toBe(true);
    const request = api.callsOf('install.extract')[0] as { jobId: string; target: string; paths: string[] };
    expect(request.target).toBe('/tmp/out');
    expect(request.jobId).toMatch(/^job-/);
    expect(seen).toEqual([0, 1, 2]);
    const job = useJobsStore().jobs[0]!;
    expect(job).toMatchObject({ state: 'done', done: 2, total: 2 });
    expect(job.summary).toBe('2 files, 200 B written to /tmp/out');
  });

  it('refuses to extract without a target folder', async () => {
    const files = useFilesStore();
    files.select(files.rows.find((r) => r.name === 'readme.txt')!);
    expect(await files.extract('  ')).toBe(false);
    expect(api.callsOf('install.extract')).toEqual([]);
    expect(useErrorsStore().notices[0]!.message).toMatch(/Choose a folder/);
  });

  it('drops the tree when another install is opened, and reads the new one at once', async () => {
    const files = useFilesStore();
    expect(files.tree).not.toBeNull();
    const release = api.hold('install.tree');
    await useInstallStore().open(DEMO_ROOT);
    await settle();
    expect(files.tree).toBeNull();
    expect(files.loading).toBe(true);
    // The Files screen asking meanwhile waits for the same read.
    const shown = files.ensureLoaded();
    release();
    await shown;
    expect(files.tree).not.toBeNull();
    expect(api.callsOf('install.tree')).toHaveLength(2);
  });
});

describe('jobs store', () => {
  it('follows progress events and cancels through jobs.cancel', async () => {
    initJobsStore();
    const jobs = useJobsStore();
    const running = jobs.run(
      'Extracting 3000 files',
      (jobId) => api.call('install.extract', { root: DEMO_ROOT, paths: api.extraPaths, target: '/tmp/x', jobId }),
      () => 'done',
    );
    await settle(3);
    const job = jobs.jobs[0]!;
    expect(job.state).toBe('running');
    expect(job.total).toBe(3000);
    expect(job.done).toBeGreaterThan(0);
    expect(job.done).toBeLessThan(3000);
    expect(job.label).toBe('Extracting 3000 files');
    expect(job.detail).toMatch(/^file \d+ of 3000$/);
    await jobs.cancel(job.id);
    expect(await running).toBeNull();
    expect(api.callsOf('jobs.cancel')).toEqual([{ jobId: job.id }]);
    expect(jobs.jobs[0]).toMatchObject({ state: 'cancelled', summary: 'Cancelled' });
    // A cancellation is not an error.
    expect(useErrorsStore().notices).toEqual([]);
  });

  it('marks a failed job and reports it', async () => {
    api.fail('archive.verify', 'totala1.hpi: unexpected end of file at byte 1024');
    const result = await useJobsStore().run(
      'Verifying',
      (jobId) => api.call('archive.verify', { path: '/x.hpi', jobId }),
      () => 'ok',
    );
    expect(result).toBeNull();
    expect(useJobsStore().jobs[0]).toMatchObject({ state: 'failed', summary: 'totala1.hpi: unexpected end of file at byte 1024' });
    expect(useErrorsStore().notices[0]).toMatchObject({
      context: 'Verifying',
      message: 'totala1.hpi: unexpected end of file at byte 1024',
    });
  });
});

describe('definitions store', () => {
  it('loads each kind once, searches and keeps only overridden ones on request', async () => {
    await useInstallStore().open(DEMO_ROOT);
    const defs = useDefinitionsStore();
    await defs.load();
    expect(defs.filtered.map((d) => d.name)).toEqual(['ARMCOM', 'CORCOM']);
    defs.onlyConflicts = true;
    expect(defs.filtered.map((d) => d.name)).toEqual(['ARMCOM']);
    defs.onlyConflicts = false;
    defs.query = 'cor';
    expect(defs.filtered.map((d) => d.name)).toEqual(['CORCOM']);
    await defs.show('weapons');
    await defs.show('units');
    expect(api.callsOf('install.defs')).toEqual([
      { root: DEMO_ROOT, kind: 'units' },
      { root: DEMO_ROOT, kind: 'weapons' },
    ]);
  });
});

describe('archive store', () => {
  it('opens an archive, filters entries in stored order, reads one', async () => {
    const archive = useArchiveStore();
    expect(await archive.open('/games/TotalA/totala1.hpi')).toBe(true);
    expect(archive.visible).toEqual([0, 1, 2, 3]);
    archive.query = 'armcom';
    expect(archive.visible).toEqual([1, 2]);
    archive.select(2);
    await settle();
    expect(api.callsOf('archive.read')[0]).toMatchObject({ path: '/games/TotalA/totala1.hpi', entry: 'unitpics/ARMCOM.PCX' });
  });

  it('extracts what the filter shows, and verifies with the damage listed', async () => {
    const archive = useArchiveStore();
    await archive.open('/games/TotalA/totala1.hpi');
    archive.query = 'armcom';
    await archive.extract('/tmp/out');
    expect(api.callsOf('archive.extract')[0]).toMatchObject({
      path: '/games/TotalA/totala1.hpi',
      target: '/tmp/out',
      globs: ['units/ARMCOM.FBI', 'unitpics/ARMCOM.PCX'],
    });
    archive.query = '*.gaf';
    await archive.extract('/tmp/out');
    expect(api.callsOf('archive.extract')[1]).toMatchObject({ globs: ['*.gaf'] });
    const verified = await archive.verify();
    expect(verified?.ok).toBe(false);
    expect(archive.verifyResult?.errors[0]?.path).toBe('anims/logo.gaf');
    // One damaged file of three: counted against all three, and the job is shown as failed (red).
    expect(useJobsStore().jobs.at(-1)).toMatchObject({ summary: '1 of 3 files damaged', state: 'failed' });
  });

  it('a failed open clears the previous archive instead of showing its entries under the new name', async () => {
    const archive = useArchiveStore();
    expect(await archive.open('/games/TotalA/totala1.hpi')).toBe(true);
    expect(archive.listing).not.toBeNull();
    expect(await archive.open('/tmp/not-an-archive.zip')).toBe(false);
    expect(archive.listing).toBeNull();
    expect(archive.path).toBeNull();
    expect(archive.visible).toEqual([]);
    // Shown beside the field only, not once more in the banner.
    expect(useErrorsStore().notices).toEqual([]);
  });

  it('shows why an archive cannot be opened', async () => {
    const archive = useArchiveStore();
    expect(await archive.open('/tmp/not-an-archive.zip')).toBe(false);
    expect(archive.openError).toMatch(/not a recognised archive/);
    expect(archive.listing).toBeNull();
  });
});
