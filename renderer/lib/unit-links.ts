/**
 * What a unit's FBI points at, by TA's naming rules: its model objects3d/<Objectname>.3do, its script
 * scripts/<Objectname>.cob, its build picture unitpics/<UnitName>.pcx and build menu button
 * anims/<UnitName>_gadget.gaf.
 * Only the paths the install has are offered (`has` answers case-insensitively).
 */
export interface UnitLink {
  label: string;
  path: string;
}

function value(text: string, key: string): string | null {
  const m = new RegExp(`^\\s*${key}\\s*=\\s*([^;\\r\\n]+?)\\s*;`, 'im').exec(text);
  return m?.[1] && !/[\\/]|\.\./.test(m[1]) ? m[1] : null;
}

export function unitLinks(fbi: string, has: (path: string) => string | null): UnitLink[] {
  const object = value(fbi, 'Objectname');
  const unit = value(fbi, 'UnitName');
  const candidates: [string, string | null][] = [
    ['Model', object && `objects3d/${object}.3do`],
    ['Script', object && `scripts/${object}.cob`],
    ['Build picture', unit && `unitpics/${unit}.pcx`],
    ['Build button', unit && `anims/${unit}_gadget.gaf`],
  ];
  const out: UnitLink[] = [];
  for (const [label, candidate] of candidates) {
    const path = candidate ? has(candidate) : null;
    if (path) out.push({ label, path });
  }
  return out;
}
