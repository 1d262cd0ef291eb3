import { describe, expect, it } from 'vitest';
import { PathAllowlist } from '../../../electron/services/host/allowlist.js';

describe('PathAllowlist', () => {
  it('a folder grants what is under it, not its neighbours with a common prefix', async () => {
    const list = new PathAllowlist({ platform: 'linux', home: '/home/u' });
    await list.grant('/games/TotalA', 'folder');
    expect(list.allows('/games/TotalA')).toBe(true);
    expect(list.allows('/games/TotalA/units/ARMCOM.FBI')).toBe(true);
    expect(list.allows('/games/TotalA2/x')).toBe(false);
    expect(list.allows('/games/TotalA/../secret')).toBe(false);
    expect(list.allows('/games/totala/units')).toBe(false);
    expect(list.allows('games/TotalA')).toBe(false);
  });

  it('a file grants itself only', async () => {
    const list = new PathAllowlist({ platform: 'linux', home: '/home/u' });
    await list.grant('/mods/a.ufo', 'file');
    expect(list.allows('/mods/a.ufo')).toBe(true);
    expect(list.allows('/mods/a.ufo/x')).toBe(false);
    expect(list.allows('/mods/b.ufo')).toBe(false);
  });

  it('compares case-insensitively on Windows, with drive letters and backslashes', async () => {
    const list = new PathAllowlist({ platform: 'win32', home: 'C:\\Users\\u' });
    await list.grant('C:\\Games\\TotalA', 'folder');
    expect(list.allows('c:\\games\\totala\\UNITS\\armcom.fbi')).toBe(true);
    expect(list.allows('C:/Games/TotalA/units')).toBe(true);
    expect(list.allows('D:\\Games\\TotalA')).toBe(false);
  });

  it('refuses to grant a whole drive or the home folder itself', async () => {
    const list = new PathAllowlist({ platform: 'linux', home: '/home/u' });
    await expect(list.grant('/', 'folder')).rejects.toMatchObject({ code: 'not-allowed' });
    await expect(list.grant('/home/u/', 'folder')).rejects.toMatchObject({ code: 'not-allowed' });
    expect(await list.grant('/home/u/TotalA', 'folder')).toBe('/home/u/TotalA');
    const win = new PathAllowlist({ platform: 'win32', home: 'C:\\Users\\u' });
    await expect(win.grant('D:\\', 'folder')).rejects.toMatchObject({ code: 'not-allowed' });
    expect(list.allows('/etc/passwd')).toBe(false);
  });
});
