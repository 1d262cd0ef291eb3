import type { Mesh, MeshPrimitive } from './mesh.js';

/**
 * Small facts about a Mesh that its consumers (the glTF and OBJ writers, the viewer) share.
 *
 * How a model's game axes become the y-up, right-handed axes of glTF, OBJ and three.js. The Quake family is
 * z-up and right-handed: a quarter turn about x (z → y, y → -z). TA's 3DO is y-up but left-handed (RWE and
 * TA3D mirror it too): z is negated, which is a mirror, so faces are drawn double-sided everywhere.
 */
export interface AxisTransform {
  /** Quaternion x, y, z, w. */
  rotation: [number, number, number, number];
  scale: [number, number, number];
}

const HALF = Math.SQRT1_2;

export function yUpTransform(up: Mesh['up']): AxisTransform {
  return up === 'z' ? { rotation: [-HALF, 0, 0, HALF], scale: [1, 1, 1] } : { rotation: [0, 0, 0, 1], scale: [1, 1, -1] };
}

/** A point in game axes → y-up right-handed (what yUpTransform does as a node transform). */
export function toYUp(up: Mesh['up'], x: number, y: number, z: number): [number, number, number] {
  return up === 'z' ? [x, z, -y] : [x, y, -z];
}

/** Each piece's offset from the model's origin: the sum of its own and its ancestors' offsets. */
export function pieceOrigins(mesh: Mesh): [number, number, number][] {
  const origins: [number, number, number][] = [];
  mesh.pieces.forEach((piece, i) => {
    const parent = piece.parent !== null && piece.parent < i ? origins[piece.parent] : undefined;
    const base = parent ?? [0, 0, 0];
    origins.push([base[0] + piece.offset[0], base[1] + piece.offset[1], base[2] + piece.offset[2]]);
  });
  return origins;
}

/** Positions of a primitive at animation frame `frame` (0 is `positions`, k is framePositions[k - 1]). */
export function positionsAt(primitive: MeshPrimitive, frame: number): Float32Array {
  if (frame <= 0) return primitive.positions;
  return primitive.framePositions?.[frame - 1] ?? primitive.positions;
}

/** Number of animation frames a mesh carries (1 for a still model). */
export function frameCount(mesh: Mesh): number {
  let count = 1;
  for (const piece of mesh.pieces) for (const p of piece.primitives) count = Math.max(count, 1 + (p.framePositions?.length ?? 0));
  return count;
}

/** Total triangles of a mesh (every piece, every primitive). */
export function triangleCount(mesh: Mesh): number {
  let count = 0;
  for (const piece of mesh.pieces) for (const p of piece.primitives) count += Math.floor(p.positions.length / 9);
  return count;
}
