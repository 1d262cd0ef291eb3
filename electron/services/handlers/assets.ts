import { basename } from 'node:path';
import { fail } from '../../../shared/errors.js';
import { assetDecoderFor, type AssetDecoder } from '../../../shared/assets/registry.js';
import { wadLumpDecoder } from '../../../shared/assets/quake/views.js';
import { wadLumpType } from '../wad-lump-service.js';
import { encodeAssetView } from '../../../shared/assets/wire.js';
import type { AssetViewResult } from '../../../shared/contract.js';
import { assetContext, openAsset } from '../asset-service.js';
import type { MountedInstall } from '../../vfs/index.js';
import type { CallTable } from '../host/types.js';

/**
 * `asset.view`: a file decoded by its asset decoder (GAF, PAL, 3DO, ...) into the AssetView the studio's
 * viewers show, in its wire form. An install path reads through the studio's cached mount (the winner, or
 * the provider the Layering panel picked), so palettes and textures come from the same install without a
 * second mount; an archive entry reads through the asset service, taking palettes and sister files from the
 * archive itself, then from `paletteRoot` (the install the studio has open), and a WAD lump is decoded by
 * the type its directory gives it.
 */
export function assetHandlers(opened: (root: string) => Promise<MountedInstall>): Pick<CallTable, 'asset.view'> {
  return {
    'asset.view': async ({ root, path, archive, file, entry, paletteRoot }): Promise<AssetViewResult> => {
      if ((root === undefined) === (file === undefined))
        fail('refused', 'asset.view: give root and path (an install) or file and entry (an archive)');
      let name: string;
      let origin: string;
      let bytes: Uint8Array;
      let context;
      let decoder: AssetDecoder | null = null;
      if (root !== undefined) {
        if (!path) fail('refused', 'asset.view: an install needs a path');
        const install = await opened(root);
        const winner = install.resolve(path).winner;
        if (!winner) fail('not-found', `${path}: no such file in the install`);
        const from = archive !== undefined ? archive : winner.archive;
        bytes = await install.read(path, from);
        name = basename(path);
        origin = `${path} from ${from ?? 'a loose file'}`;
        context = assetContext(install);
      } else {
        if (!entry) fail('refused', 'asset.view: an archive needs an entry');
        const under = paletteRoot !== undefined ? await opened(paletteRoot) : undefined;
        const asset = await openAsset(file!, { entry, ...(under ? { under } : {}) });
        ({ name, origin, bytes, context } = asset);
        await asset.close();
        // A WAD's lumps have no extension: their directory type says what they are.
        const lump = await wadLumpType(file!, entry);
        if (lump) decoder = wadLumpDecoder(lump.version, lump.type);
      }
      decoder ??= assetDecoderFor(name, bytes.subarray(0, 64));
      if (!decoder) return { name, origin, size: bytes.length, decoder: null, view: null };
      // Decoders see the whole path: a TNT finds its sister .ota by it, Quake 2 pics/ draw index 255 as nothing.
      const view = await decoder.view(root !== undefined ? path! : entry!, bytes, context);
      return { name, origin, size: bytes.length, decoder: decoder.id, view: encodeAssetView(view) };
    },
  };
}
