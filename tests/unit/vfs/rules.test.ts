import { describe, expect, it } from 'vitest';
import { gameRules, pakNumber, type FolderListing, type MountStatus, type Probe } from '../../../electron/vfs/rules/index.js';
import { compareNames, sortNames } from '../../../electron/vfs/names.js';

const OK: MountStatus = { ok: true, reason: 'mounted' };
/** A probe from a table of failures; everything else passes. */
const probeFrom =
  (failures: Record<string, string> = {}): Probe =>
  (root, name) => {
    const why = failures[`${root}:${name}`] ?? failures[name];
    return why ? { ok: false, reason: why } : OK;
  };
const listing = (install: string[], disc: FolderListing['disc'] = 'install', nested: string[] = []): FolderListing => ({
  install,
  disc,
  nested,
});
const order = (plan: { mounted: { archive: string; stage: string; root: string }[] }) =>
  plan.mounted.map((m) => `${m.stage}:${m.root === 'disc' ? 'disc/' : ''}${m.archive}`);

describe('names in upper-case ASCII order', () => {
  it('puts _ after letters and ignores case', () => {
    expect(sortNames(['zeta.ufo', '_extra.ufo', 'AFark.ufo', 'beta.UFO'])).toEqual(['AFark.ufo', 'beta.UFO', 'zeta.ufo', '_extra.ufo']);
    expect(compareNames('a.hpi', 'A.HPI')).not.toBe(0);
  });
});

describe('TA 3.1c mount order', () => {
  const ta = gameRules.ta;
  it('rev31.gp3 → ccx → ufo → hpi, each group in upper-case name order, other .gp3 ignored', () => {
    const plan = ta.plan(
      listing(['totala1.hpi', 'zeta.ufo', '_extra.ufo', 'AFark.ufo', 'Rev31.GP3', 'old.gp3', 'b.ccx', 'a.CCX', 'readme.txt']),
      probeFrom(),
    );
    expect(order(plan)).toEqual([
      'gp3:Rev31.GP3',
      'ccx:a.CCX',
      'ccx:b.ccx',
      'ufo:AFark.ufo',
      'ufo:zeta.ufo',
      'ufo:_extra.ufo',
      'hpi:totala1.hpi',
    ]);
    expect(plan.ignored).toEqual([
      { archive: 'old.gp3', root: 'install', reason: 'only rev31.gp3 is mounted; other .gp3 files are ignored' },
    ]);
    expect(plan.looseFirst).toBe(true);
  });

  it('only candidates that need a test are probed: rev31.gp3 but not other .gp3', () => {
    const names = ta
      .candidates(listing(['rev31.gp3', 'x.gp3', 'a.ufo', 'b.hpi', 'c.txt'], ['d.hpi', 'e.ufo']))
      .map((c) => `${c.root}:${c.name}`);
    expect(names.sort()).toEqual(['disc:d.hpi', 'install:a.ufo', 'install:b.hpi', 'install:rev31.gp3']);
  });

  it('ten .hpi slots; archives failing the mount test take none; the rest come from the disc (the install folder)', () => {
    const hpis = Array.from({ length: 14 }, (_, i) => `h${String(i).padStart(2, '0')}.hpi`);
    const plan = ta.plan(listing(hpis), probeFrom({ 'h01.hpi': 'no trailer', 'h03.hpi': 'HPI v2' }));
    const slots = plan.mounted.filter((m) => m.stage === 'hpi').map((m) => m.archive);
    expect(slots).toEqual(['h00.hpi', 'h02.hpi', 'h04.hpi', 'h05.hpi', 'h06.hpi', 'h07.hpi', 'h08.hpi', 'h09.hpi', 'h10.hpi', 'h11.hpi']);
    expect(order(plan).slice(10)).toEqual(['disc:h12.hpi', 'disc:h13.hpi']);
    expect(plan.mounted.slice(10).every((m) => m.root === 'install')).toBe(true);
    expect(plan.ignored).toEqual([
      { archive: 'h01.hpi', root: 'install', reason: 'no trailer' },
      { archive: 'h03.hpi', root: 'install', reason: 'HPI v2' },
    ]);
  });

  it('a failing .ufo or rev31.gp3 is ignored with its reason', () => {
    const plan = ta.plan(
      listing(['rev31.gp3', 'bad.ufo', 'good.ufo']),
      probeFrom({ 'bad.ufo': 'bytes after the trailer', 'rev31.gp3': 'no trailer' }),
    );
    expect(order(plan)).toEqual(['ufo:good.ufo']);
    expect(plan.ignored.map((i) => `${i.archive}: ${i.reason}`)).toEqual(['rev31.gp3: no trailer', 'bad.ufo: bytes after the trailer']);
  });

  it('--no-disc: the .hpi past ten slots are ignored and nothing else is mounted', () => {
    const hpis = Array.from({ length: 12 }, (_, i) => `h${String(i).padStart(2, '0')}.hpi`);
    const plan = ta.plan(listing(hpis, null), probeFrom());
    expect(plan.mounted).toHaveLength(10);
    expect(plan.ignored).toEqual([
      { archive: 'h10.hpi', root: 'install', reason: 'past the ten *.hpi slots and the disc is off' },
      { archive: 'h11.hpi', root: 'install', reason: 'past the ten *.hpi slots and the disc is off' },
    ]);
  });

  it('a separate disc folder: its top-level .hpi come last, without limit, tested too', () => {
    const disc = [
      'worlds.hpi',
      'totala3.HPI',
      'totala4.hpi',
      'broken.hpi',
      'notes.ufo',
      ...Array.from({ length: 11 }, (_, i) => `d${String(i).padStart(2, '0')}.hpi`),
    ];
    const plan = ta.plan(listing(['totala1.hpi', 'mod.ufo'], disc), probeFrom({ 'disc:broken.hpi': 'no trailer' }));
    expect(order(plan)).toEqual([
      'ufo:mod.ufo',
      'hpi:totala1.hpi',
      ...Array.from({ length: 11 }, (_, i) => `disc:disc/d${String(i).padStart(2, '0')}.hpi`),
      'disc:disc/totala3.HPI',
      'disc:disc/totala4.hpi',
      'disc:disc/worlds.hpi',
    ]);
    expect(plan.ignored).toEqual([{ archive: 'broken.hpi', root: 'disc', reason: 'no trailer' }]);
  });

  it('archives in subfolders are listed as ignored, never mounted', () => {
    const plan = ta.plan(listing(['a.hpi'], 'install', ['Backup/old.hpi', 'mods/x.ufo', 'units/armcom.fbi']), probeFrom());
    expect(order(plan)).toEqual(['hpi:a.hpi']);
    expect(plan.ignored).toEqual([
      { archive: 'Backup/old.hpi', root: 'install', reason: 'in a subfolder: only the top level of the folder is mounted' },
      { archive: 'mods/x.ufo', root: 'install', reason: 'in a subfolder: only the top level of the folder is mounted' },
    ]);
  });
});

describe('TA: Kingdoms overlay', () => {
  it('by extension then name, a later one overriding an earlier one (reported highest first)', () => {
    const plan = gameRules.tak.plan(
      listing(['IPData.hpi', 'data.hpi', 'zz.ccx', 'bad.hpi', 'readme.txt'], null),
      probeFrom({ 'bad.hpi': 'not an HPI archive' }),
    );
    expect(order(plan)).toEqual(['overlay:IPData.hpi', 'overlay:data.hpi', 'overlay:zz.ccx']);
    expect(plan.ignored).toEqual([{ archive: 'bad.hpi', root: 'install', reason: 'not an HPI archive' }]);
  });
});

describe('Quake family', () => {
  it('pakN names only, without leading zeros, in any case', () => {
    expect(['pak0.pak', 'PAK1.PAK', 'Pak12.Pak', 'pak01.pak', 'pak.pak', 'mypak0.pak'].map(pakNumber)).toEqual([
      0,
      1,
      12,
      null,
      null,
      null,
    ]);
  });

  it('quake: pak0, pak1, … up to the first missing number, higher first; paks beat loose files', () => {
    const plan = gameRules.quake.plan(listing(['pak0.pak', 'PAK1.PAK', 'pak3.pak', 'extra.pak'], null), probeFrom());
    expect(order(plan)).toEqual(['pak:PAK1.PAK', 'pak:pak0.pak']);
    expect(plan.looseFirst).toBe(false);
    expect(plan.ignored).toEqual([
      { archive: 'extra.pak', root: 'install', reason: 'not named pakN.pak, so the engine never opens it' },
      { archive: 'pak3.pak', root: 'install', reason: 'after the first missing number (pak2.pak): quake stops there' },
    ]);
  });

  it('quake2: pak0–pak9 with gaps, higher first; paks beat loose files', () => {
    const plan = gameRules.quake2.plan(listing(['pak0.pak', 'pak2.pak', 'pak9.pak', 'pak10.pak'], null), probeFrom());
    expect(order(plan)).toEqual(['pak:pak9.pak', 'pak:pak2.pak', 'pak:pak0.pak']);
    expect(plan.looseFirst).toBe(false);
    expect(plan.ignored).toEqual([{ archive: 'pak10.pak', root: 'install', reason: 'quake2 loads only pak0 to pak9' }]);
  });

  it('daikatana: pak0–pak9 with gaps, higher first; loose files beat paks', () => {
    const plan = gameRules.daikatana.plan(
      listing(['pak1.pak', 'pak4.pak', 'pak0.pak'], null),
      probeFrom({ 'pak4.pak': 'not a Daikatana PAK archive' }),
    );
    expect(order(plan)).toEqual(['pak:pak1.pak', 'pak:pak0.pak']);
    expect(plan.looseFirst).toBe(true);
    expect(plan.ignored).toEqual([{ archive: 'pak4.pak', root: 'install', reason: 'not a Daikatana PAK archive' }]);
  });
});
