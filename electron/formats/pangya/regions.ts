import type { PangyaRegion } from '../../../shared/archive-info.js';
import { xteaKey, type XteaKey } from './xtea.js';

/**
 * The six XTEA keys the Pangya clients use for table metadata, one per regional publisher. The order is
 * the preference when more than one key decodes a table (the US key first: it is the writer's default).
 */
export type { PangyaRegion };

export const REGION_KEYS: Readonly<Record<PangyaRegion, XteaKey>> = {
  us: xteaKey(0x03f607a9, 0x036f5a3e, 0x011002b4, 0x04ab00ea),
  jp: xteaKey(0x020a5fd4, 0x01eebdff, 0x02b3c6a0, 0x04f6a3e1),
  th: xteaKey(0x050ad33b, 0x00baff09, 0x0452ffda, 0x02cb4422),
  eu: xteaKey(0x01e986d8, 0x05818479, 0x03d2b0bb, 0x02c9b030),
  id: xteaKey(0x01640db7, 0x01455a9b, 0x027f1ab7, 0x05918b54),
  kr: xteaKey(0x0485b576, 0x05148e02, 0x05141d96, 0x028fa9d6),
};

export const REGIONS: readonly PangyaRegion[] = ['us', 'jp', 'th', 'eu', 'id', 'kr'];
