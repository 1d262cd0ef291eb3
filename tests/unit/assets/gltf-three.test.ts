import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as THREE from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { samplesDir } from '../../helpers/run-cli.js';
import { parse3do } from '../../../shared/assets/ta/3do.js';
import { threeDoToMesh } from '../../../shared/assets/ta/3do-mesh.js';
import { encodeGlb } from '../../../shared/assets/gltf.js';
import { pieceOrigins, toYUp, triangleCount } from '../../../shared/assets/mesh-util.js';

/** The GLB read back by an independent glTF reader (three.js's GLTFLoader), untextured (no DOM here). */
function load(glb: Uint8Array): Promise<GLTF> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

describe('GLB read by three.js GLTFLoader', () => {
  it.each(['ta/armimr/objects3d/ARMIMR.3do', 'ta/objects3d/DEMR.3do', 'ta/objects3d/screamer.3do'])(
    '%s: same pieces, triangles and world bounds',
    async (path) => {
      const { mesh } = await threeDoToMesh(parse3do(new Uint8Array(readFileSync(join(samplesDir, path)))));
      const gltf = await load(encodeGlb(mesh));
      const names: string[] = [];
      let triangles = 0;
      gltf.scene.traverse((o) => {
        if (o instanceof THREE.Mesh) triangles += (o.geometry as THREE.BufferGeometry).getAttribute('position').count / 3;
        names.push(o.name);
      });
      expect(triangles).toBe(triangleCount(mesh));
      // The loader sanitises node names and suffixes repeated ones (_1, _2).
      for (const p of mesh.pieces) expect(names.some((n) => n.startsWith(THREE.PropertyBinding.sanitizeNodeName(p.name)))).toBe(true);
      // World bounds: every vertex moved by its piece's accumulated offset, then into y-up axes.
      const origins = pieceOrigins(mesh);
      const box = new THREE.Box3();
      mesh.pieces.forEach((piece, i) => {
        for (const prim of piece.primitives) {
          for (let v = 0; v < prim.positions.length; v += 3) {
            const o = origins[i]!;
            box.expandByPoint(
              new THREE.Vector3(...toYUp(mesh.up, prim.positions[v]! + o[0], prim.positions[v + 1]! + o[1], prim.positions[v + 2]! + o[2])),
            );
          }
        }
      });
      gltf.scene.updateMatrixWorld(true);
      const loaded = new THREE.Box3().setFromObject(gltf.scene);
      for (const k of ['x', 'y', 'z'] as const) {
        expect(loaded.min[k]).toBeCloseTo(box.min[k], 3);
        expect(loaded.max[k]).toBeCloseTo(box.max[k], 3);
      }
    },
  );
});
