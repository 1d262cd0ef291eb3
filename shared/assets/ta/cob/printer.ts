import { AXES, EXPLOSION_FLAGS, SFX_TYPES, UNIT_VALUES, literalText } from './opcodes.js';
import { BINARY_BY_OP, UNARY_PRECEDENCE } from './syntax.js';
import type { BosProgram, Expr, NumberForm, ScriptNode, Stmt } from './ast.js';

/**
 * BOS source for a program tree, in the layout Scriptor's decompiler made familiar. Compiling the text
 * gives back the tree's code: constants print in a spelling that converts back to the same integer, and
 * parentheses follow the parser's precedence.
 */

const UNIT_VALUE_NAMES = new Map(Object.entries(UNIT_VALUES).map(([k, v]) => [v, k]));
const FLAG_NAMES = new Map(Object.entries(EXPLOSION_FLAGS).map(([k, v]) => [v, k]));
const HEADER_NAMES = new Set([...Object.keys(UNIT_VALUES), ...Object.keys(EXPLOSION_FLAGS), ...Object.keys(SFX_TYPES), 'BITMAPMASK']);

export function printProgram(program: BosProgram): string {
  const names = [...program.pieces, ...program.scripts.map((s) => s.name)];
  // The standard headers' names read better than numbers, unless one of the script's own names is a macro there.
  const symbolic = !names.some((n) => HEADER_NAMES.has(n));
  const out: string[] = [];
  if (symbolic) out.push('#include "sfxtype.h"', '#include "exptype.h"', '');
  if (program.pieces.length) out.push(`piece  ${program.pieces.join(', ')};`, '');
  if (program.statics.length) out.push(`static-var  ${program.statics.join(', ')};`, '');
  if (program.sounds.length) out.push(`sound  ${program.sounds.join(', ')};`, '');
  for (const script of program.scripts) {
    out.push('', `${script.name}(${script.params.join(', ')})`, '{');
    new ScriptPrinter(program, script, symbolic, out).block(script.body, 1);
    out.push('}');
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

class ScriptPrinter {
  /** Local slots declared so far: the parameters, then each var printed. */
  private declared: number;

  constructor(
    private readonly program: BosProgram,
    private readonly script: ScriptNode,
    private readonly symbolic: boolean,
    private readonly out: string[],
  ) {
    this.declared = script.params.length;
  }

  block(stmts: Stmt[], depth: number): void {
    for (const s of stmts) this.stmt(s, depth);
  }

  private line(depth: number, text: string): void {
    this.out.push('\t'.repeat(depth) + text);
  }

  private stmt(s: Stmt, d: number): void {
    const e = (x: Expr) => this.expr(x);
    const piece = (i: number) => this.program.pieces[i] ?? String(i);
    switch (s.kind) {
      case 'var': {
        // Statements print in code order, so the locals declared so far are the ones before this var.
        const before = this.declared;
        this.declared += s.count;
        this.line(d, `var ${this.script.locals.slice(before, this.declared).join(', ')};`);
        return;
      }
      case 'assign':
        this.line(d, `${s.target.kind === 'local' ? this.local(s.target.index) : this.static(s.target.index)} = ${e(s.value)};`);
        return;
      case 'if':
        this.line(d, `if( ${this.condition(s.cond)} )`);
        this.braced(s.then, d);
        if (s.else) {
          this.line(d, 'else');
          this.braced(s.else, d);
        }
        return;
      case 'while':
        this.line(d, `while( ${this.condition(s.cond)} )`);
        this.braced(s.body, d);
        return;
      case 'return':
        this.line(d, `return (${e(s.value)});`);
        return;
      case 'motion':
        this.line(d, `${s.op} ${piece(s.piece)} to ${AXES[s.axis]} ${e(s.target)} ${s.speed ? `speed ${e(s.speed)}` : 'now'};`);
        return;
      case 'spin':
        this.line(
          d,
          `spin ${piece(s.piece)} around ${AXES[s.axis]} speed ${e(s.speed)}${isZero(s.accelerate) ? '' : ` accelerate ${e(s.accelerate)}`};`,
        );
        return;
      case 'stopSpin':
        this.line(d, `stop-spin ${piece(s.piece)} around ${AXES[s.axis]}${isZero(s.decelerate) ? '' : ` decelerate ${e(s.decelerate)}`};`);
        return;
      case 'wait':
        this.line(d, `wait-for-${s.op} ${piece(s.piece)} ${s.op === 'turn' ? 'around' : 'along'} ${AXES[s.axis]};`);
        return;
      case 'pieceFlag':
        this.line(d, `${s.op} ${piece(s.piece)};`);
        return;
      case 'emitSfx':
        this.line(d, `emit-sfx ${e(s.type)} from ${piece(s.piece)};`);
        return;
      case 'explode':
        this.line(d, `explode ${piece(s.piece)} type ${this.flags(s.type)};`);
        return;
      case 'sleep':
      case 'signal':
        this.line(d, `${s.kind} ${e(s.value)};`);
        return;
      case 'setSignalMask':
        this.line(d, `set-signal-mask ${e(s.value)};`);
        return;
      case 'set':
        this.line(d, `set ${this.unitValue(s.name)} to ${e(s.value)};`);
        return;
      case 'call':
      case 'start':
        this.line(d, `${s.kind}-script ${this.program.scripts[s.script]?.name ?? s.script}(${s.args.map(e).join(', ')});`);
        return;
      case 'attachUnit':
        this.line(d, `attach-unit ${e(s.unit)} to ${e(s.piece)};`);
        return;
      case 'dropUnit':
        this.line(d, `drop-unit ${e(s.unit)};`);
        return;
    }
  }

  private braced(stmts: Stmt[], d: number): void {
    this.line(d, '{');
    this.block(stmts, d + 1);
    this.line(d, '}');
  }

  private local(i: number): string {
    return this.script.locals[i] ?? `Func_Var_${i + 1}`;
  }

  private static(i: number): string {
    return this.program.statics[i] ?? `Static_Var_${i + 1}`;
  }

  private condition(c: Expr): string {
    if (c.kind === 'number' && c.form === 'plain' && (c.value === 0 || c.value === 1)) return c.value ? 'TRUE' : 'FALSE';
    return this.expr(c);
  }

  private unitValue(e: Expr): string {
    if (this.symbolic && e.kind === 'number') return UNIT_VALUE_NAMES.get(e.value) ?? String(e.value);
    return this.expr(e, UNARY_PRECEDENCE + 1);
  }

  /** Explosion flags by name where a constant is exactly one flag. */
  private flags(e: Expr): string {
    if (this.symbolic && e.kind === 'number') return FLAG_NAMES.get(e.value) ?? String(e.value);
    if (this.symbolic && e.kind === 'binary' && e.op === 'bitOr') return `${this.flags(e.left)} | ${this.flagOperand(e.right)}`;
    return this.expr(e);
  }

  private flagOperand(e: Expr): string {
    return e.kind === 'number' ? this.flags(e) : this.expr(e, (BINARY_BY_OP.get('bitOr')?.precedence ?? 0) + 1);
  }

  expr(e: Expr, parent = 0): string {
    switch (e.kind) {
      case 'number':
        return this.number(e.value, e.form);
      case 'local':
        return this.local(e.index);
      case 'static':
        return this.static(e.index);
      case 'binary': {
        const syntax = BINARY_BY_OP.get(e.op)!;
        const p = syntax.precedence;
        const text = `${this.expr(e.left, p)} ${syntax.spellings[0]} ${this.expr(e.right, p + 1)}`;
        return p < parent ? `(${text})` : text;
      }
      case 'not':
        return `!${this.expr(e.operand, UNARY_PRECEDENCE)}`;
      case 'bitNot':
        return `~${this.expr(e.operand, UNARY_PRECEDENCE)}`;
      case 'rand':
        return `Rand( ${this.expr(e.low)}, ${this.expr(e.high)} )`;
      case 'get': {
        const value = this.unitValue(e.value);
        return e.args ? `get ${value}(${e.args.map((a) => this.expr(a)).join(', ')})` : `get ${value}`;
      }
    }
  }

  private number(value: number, form: NumberForm): string {
    if (form === 'piece') return this.program.pieces[value] ?? String(value);
    if (form === 'linear' || form === 'angle') {
      const text = literalText(value, form);
      if (text !== null) return form === 'linear' ? `[${text}]` : `<${text}>`;
    }
    return String(value);
  }
}

function isZero(e: Expr): boolean {
  return e.kind === 'number' && e.value === 0;
}
