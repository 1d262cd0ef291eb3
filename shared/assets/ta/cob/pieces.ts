/**
 * A script's pieces against its model's: the engine binds each COB piece to the 3DO object of the same
 * name (ignoring case), so a script piece the model lacks animates nothing. Model objects the script does
 * not name are normal (static parts) and only counted.
 */
export interface PieceCheck {
  /** Script pieces with no model object of that name, in script order. */
  missing: string[];
  /** Model objects no script piece names, in model order. */
  unused: string[];
}

export function checkPieces(scriptPieces: readonly string[], modelPieces: readonly string[]): PieceCheck {
  const inModel = new Set(modelPieces.map((p) => p.toLowerCase()));
  const inScript = new Set(scriptPieces.map((p) => p.toLowerCase()));
  return {
    missing: scriptPieces.filter((p) => !inModel.has(p.toLowerCase())),
    unused: modelPieces.filter((p) => !inScript.has(p.toLowerCase())),
  };
}

/** Where TA keeps the model a script animates: scripts/NAME.cob beside objects3d/NAME.3do. */
export function modelPathFor(cobName: string): string {
  const stem = cobName.replace(/^.*[\\/]/, '').replace(/\.cob$/i, '');
  return `objects3d/${stem}.3do`;
}
