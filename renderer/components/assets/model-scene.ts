import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Mesh, MeshMaterial } from '../../../shared/assets/mesh';
import { positionsAt, yUpTransform } from '../../../shared/assets/mesh-util';

/**
 * The three.js side of the model viewer, kept out of the component so the component stays about its
 * controls: a scene built from a Mesh (a group per piece at its offset, under a root that turns the game's
 * axes into three.js's y-up), materials from the mesh's pictures (nearest filtering: these are pixel-art
 * textures), an orbit camera fitted to the model, and rendering on demand (SwiftShader in CI is slow).
 */
export class ModelScene {
  readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(45, 1, 0.1, 10000);
  private readonly controls: OrbitControls;
  private readonly root = new THREE.Group();
  private readonly pieceGroups: THREE.Group[] = [];
  private readonly meshes: { object: THREE.Mesh; piece: number; primitive: number; material: number }[] = [];
  private readonly materials: THREE.MeshLambertMaterial[] = [];
  private readonly highlighted: THREE.MeshLambertMaterial[] = [];
  private readonly textures: THREE.Texture[] = [];
  private selected: number | null = null;
  private frame = 0;
  private pending = false;

  constructor(
    canvas: HTMLCanvasElement,
    private readonly mesh: Mesh,
  ) {
    // preserveDrawingBuffer: the picture stays readable (toDataURL) after it is drawn, for tests and export.
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, globalThis.devicePixelRatio || 1));
    this.scene.background = new THREE.Color(0x1d2330);
    this.scene.add(new THREE.AmbientLight(0xffffff, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(0.6, 1, 0.8);
    this.scene.add(sun);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.requestRender());
    this.build();
    this.scene.add(this.root);
    this.fit();
  }

  private materialFor(m: MeshMaterial): THREE.MeshLambertMaterial {
    const [r, g, b, a] = m.color;
    const material = new THREE.MeshLambertMaterial({
      color: new THREE.Color(r / 255, g / 255, b / 255),
      side: THREE.DoubleSide,
      transparent: a < 255,
      opacity: a / 255,
    });
    if (m.image) {
      const texture = new THREE.DataTexture(m.image.rgba, m.image.width, m.image.height, THREE.RGBAFormat);
      texture.magFilter = THREE.NearestFilter;
      texture.minFilter = THREE.NearestFilter;
      texture.wrapS = THREE.RepeatWrapping;
      texture.wrapT = THREE.RepeatWrapping;
      texture.colorSpace = THREE.SRGBColorSpace;
      texture.needsUpdate = true;
      this.textures.push(texture);
      material.map = texture;
      // Paletted textures use index 0 (or 255) as holes: alpha-test them instead of blending.
      material.alphaTest = 0.5;
    }
    return material;
  }

  private build(): void {
    const axes = yUpTransform(this.mesh.up);
    this.root.quaternion.set(...axes.rotation);
    this.root.scale.set(...axes.scale);
    for (const m of this.mesh.materials) {
      const material = this.materialFor(m);
      this.materials.push(material);
      const glow = material.clone();
      glow.emissive = new THREE.Color(0x8a5a00);
      this.highlighted.push(glow);
    }
    this.mesh.pieces.forEach((piece, index) => {
      const group = new THREE.Group();
      group.name = piece.name;
      group.position.set(...piece.offset);
      const parent = piece.parent !== null ? this.pieceGroups[piece.parent] : undefined;
      (parent ?? this.root).add(group);
      this.pieceGroups.push(group);
      piece.primitives.forEach((primitive, p) => {
        if (primitive.positions.length < 9) return;
        const geometry = new THREE.BufferGeometry();
        geometry.setAttribute('position', new THREE.BufferAttribute(primitive.positions.slice(), 3));
        geometry.setAttribute('uv', new THREE.BufferAttribute(primitive.uvs, 2));
        geometry.computeVertexNormals();
        const material = this.materials[primitive.material] ?? this.materials[0]!;
        const object = new THREE.Mesh(geometry, material);
        group.add(object);
        this.meshes.push({ object, piece: index, primitive: p, material: primitive.material });
      });
    });
  }

  /** Camera at a three-quarter view, far enough to see the whole model in every animation frame. */
  fit(): void {
    this.root.updateMatrixWorld(true);
    const box = new THREE.Box3();
    const point = new THREE.Vector3();
    for (const m of this.meshes) {
      const primitive = this.mesh.pieces[m.piece]!.primitives[m.primitive]!;
      for (const positions of [primitive.positions, ...(primitive.framePositions ?? [])]) {
        for (let i = 0; i + 2 < positions.length; i += 3)
          box.expandByPoint(point.set(positions[i]!, positions[i + 1]!, positions[i + 2]!).applyMatrix4(m.object.matrixWorld));
      }
    }
    const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
    const radius = box.isEmpty() ? 10 : Math.max(1, box.getSize(new THREE.Vector3()).length() / 2);
    const distance = radius / Math.sin(THREE.MathUtils.degToRad(this.camera.fov / 2));
    this.camera.position.copy(center).add(new THREE.Vector3(0.6, 0.45, 0.65).normalize().multiplyScalar(distance));
    this.camera.near = Math.max(0.01, distance / 100);
    this.camera.far = distance * 10;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
    this.requestRender();
  }

  resize(width: number, height: number): void {
    if (width <= 0 || height <= 0) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  select(piece: number | null): void {
    this.selected = piece;
    for (const m of this.meshes) {
      const inside = piece !== null && this.isWithin(m.piece, piece);
      m.object.material = (inside ? this.highlighted : this.materials)[m.material] ?? this.materials[0]!;
    }
    this.requestRender();
  }

  /** Whether `piece` is `ancestor` or below it: selecting a piece lights up what moves with it. */
  private isWithin(piece: number, ancestor: number): boolean {
    for (let p: number | null = piece; p !== null; p = this.mesh.pieces[p]?.parent ?? null) if (p === ancestor) return true;
    return false;
  }

  setWireframe(on: boolean): void {
    for (const m of [...this.materials, ...this.highlighted]) m.wireframe = on;
    this.requestRender();
  }

  setFrame(frame: number): void {
    if (frame === this.frame) return;
    this.frame = frame;
    for (const m of this.meshes) {
      const primitive = this.mesh.pieces[m.piece]!.primitives[m.primitive]!;
      const attribute = m.object.geometry.getAttribute('position') as THREE.BufferAttribute;
      (attribute.array as Float32Array).set(positionsAt(primitive, frame));
      attribute.needsUpdate = true;
      m.object.geometry.computeVertexNormals();
      m.object.geometry.computeBoundingSphere();
    }
    this.requestRender();
  }

  get selectedPiece(): number | null {
    return this.selected;
  }

  requestRender(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.render();
    });
  }

  render(): void {
    this.renderer.render(this.scene, this.camera);
  }

  dispose(): void {
    this.controls.dispose();
    for (const m of this.meshes) m.object.geometry.dispose();
    for (const m of [...this.materials, ...this.highlighted]) m.dispose();
    for (const t of this.textures) t.dispose();
    this.renderer.dispose();
  }
}
