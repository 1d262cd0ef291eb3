import { extensionOf } from '../../shared/file-kinds';

type ModelSceneModule = typeof import('../components/assets/model-scene');

/** The files whose preview is a 3D model (the asset decoders' `model` views). */
const MODELS = new Set(['3DO', 'MDL', 'MD2', 'DKM']);

let loading: Promise<ModelSceneModule> | null = null;

/**
 * three.js and the model scene, loaded once (the rest of the studio does not pay for them); a failed
 * load is tried again next time.
 */
export function loadModelScene(): Promise<ModelSceneModule> {
  loading ??= import('../components/assets/model-scene').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/**
 * A file is being opened for preview: when it is a model, three.js starts loading now, beside the reads
 * of its bytes and view, instead of after them (the first model's frame waited for all three in turn).
 */
export function preloadModelSceneFor(path: string): void {
  if (MODELS.has(extensionOf(path))) loadModelScene().catch(() => {});
}
