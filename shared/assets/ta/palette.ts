import { base64ToBytes } from '../../bytes/base64.js';
import { paletteFromRgb, type Palette } from '../image.js';

/**
 * The standard Total Annihilation palette (palettes/PALETTE.PAL as Cavedog shipped it), used when an install
 * has no PALETTE.PAL of its own: 256 × R, G, B as base64 (the file's fourth, unused byte is always 0).
 */
const TA_PALETTE_RGB_BASE64 =
  'AAAAgAAAAIAAgIAAAACAgACAAICAgICAwNzAVFT8AAAAAAAAAAAAAAAAAAAAAAAA/+vz68fT16Ozw4eXr29/m1tji0dPeztHbzM7' +
  'YyszVyMrSxsnOxcfLw8XIwsPFwcLc//fV+e/Q8+fL7eDH59nE4tPD3c/C2s3B18vB1MrAEcnAD8jADMbACcXABsPABML4+//x9/n' +
  'r8/Lk7enf5+Da4dnX29TX2NHW1c7U0MzRzsrOzMjLysbIx8TFxMPCwsH+/vX39+3w8Obq6uDk5Nvd3dXY2NDU1MzQ0MjMzMXIyMP' +
  'GxsHFxcHExMADw8ACwsA+/v76+vr29vby8vLu7u7q6urm5ubi4uLe3t7a2trW1tbS0tLOzs7KysrHx8fDw8P6/P/y+P/r8//l7P/' +
  'e5f/Z3//U2vvP1vjM0vXIzvLFy+vDyeXBx97BxdjAA9HAAsv4/f/v9vnn7/Pg6e3a4+jU3eLP19zL0tfJz9XIzdPHy9HGyc/Fx83' +
  'ExsvDxMnCw8f1+//u+Pvm8vfg7fPa6PDU4+zP3ujL2uXI1uHG0t3Ez9nCzNXBydHABs3ABMnAAsb/+f/58fr06vXu5PDp3uzj2Of' +
  'd0uPYzt/TytvQx9jNxdXKw9HHwc7EwArCwAfBwAT1/+nq+d/g9NbZ78/S6srQ5crN4cnL3cbK2cTI1sPH08LG0MHFzMADycACxsA' +
  'Bw8A/+Of48dzy69Ts5c/m4Mvg28ja1sXU0cPSzsLQzMHOysHNyMALxsAJxMAHw8AGwsA//+j+/OD9+Nn89NP77sz76cb648T53sP' +
  '308H1yMAvx8ApxsAkxcAexMAYxMATw8A//8A/78A/4MA/0cA0ysAqxcAfwcAVwAA38v/u5/fm3e/f1efZzt/SyNfMxM/Gwcf09v/' +
  'h5/3Q2/vF0fnCyu7BxePAAdjAAA3e/93U99PM78rG58TG38LF18HEz8ACx8AAAAAAAAAAAAAAAAAAAAAAAAA//vwoKCkgICA/wAA' +
  'AP8A//8AAAD//wD/AP//////';

export const BUILT_IN_TA_PALETTE_NAME = 'built-in TA palette';

export function builtInTaPalette(): Palette {
  return paletteFromRgb(BUILT_IN_TA_PALETTE_NAME, base64ToBytes(TA_PALETTE_RGB_BASE64));
}
