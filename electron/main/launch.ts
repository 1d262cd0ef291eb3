import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { repoRoot } from '../services/locations.js';
import { buildStudio, mainBundlePath } from './bundle.js';

/**
 * `modpak studio` / `npm start`: build what Electron needs and start it. Plain Node (no electron import):
 * the binary is found through the electron package's path.txt, which names the file inside its dist/.
 */
export const ELECTRON_MISSING =
  'the Electron binary is missing (it could not be downloaded here): open the studio in a browser instead with `npm run web`';

/** No Electron binary to start (the CLI reports it as a failed operation, `npm start` as its one line). */
export class ElectronMissingError extends Error {
  constructor() {
    super(ELECTRON_MISSING);
  }
}

export function electronBinary(repo = repoRoot()): string | null {
  const pkg = join(repo, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

export interface LaunchOptions {
  root: string | null;
  log: (line: string) => void;
  repo?: string;
}

export async function launchElectronStudio(options: LaunchOptions): Promise<number> {
  const repo = options.repo ?? repoRoot();
  const binary = electronBinary(repo);
  if (!binary) throw new ElectronMissingError();
  options.log('building the studio…');
  await buildStudio(repo);
  const args = [mainBundlePath(repo), ...(options.root ? [`--modpak-root=${options.root}`] : [])];
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(binary, args, { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
