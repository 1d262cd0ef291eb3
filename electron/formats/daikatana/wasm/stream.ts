/**
 * Daikatana's decompression in WebAssembly (stream.wat): each call copies a piece of the stream into the
 * module's memory, with the output's last bytes that a back-reference reaches, and the new output out. It
 * reports a failure with where it happened; codec.ts words the messages.
 */
import { landStep, stageStep, wasmInstances, type FailedStep, type WasmStepExports } from '../../common/wasm.js';
import { WASM_BASE64 } from './stream.wasm.js';

interface DkExports extends WasmStepExports {
  ended: WebAssembly.Global;
  decode(inEnd: number, outputAt: number, q0: number, stop: number, room: number, final: number): number;
}

/** A 256 KiB piece with its stream, several times over. */
const workspace = wasmInstances<DkExports>(WASM_BASE64, 2 << 20);

/** A word copy reads or writes up to 7 bytes past its end. */
const SLACK = { input: 8, output: 8 };
/** The longest opcode (a literal of 64 bytes): a call given at least this much input always gets one done. */
const OPCODE_MAX = 65;

/** The failure codes: past the room (value: length), a literal cut off (value: length), a run or a back-reference cut off, before the start (value: distance), no end marker. */
export const DK_OVERRUN = -1;
export const DK_LITERAL_CUT_OFF = -2;
export const DK_RUN_CUT_OFF = -3;
export const DK_COPY_CUT_OFF = -4;
export const DK_BEFORE_START = -5;
export const DK_NO_END = -6;

/** Where a step stands: the new positions and whether the end marker was read, or a failure with the output and input offsets its own are from. */
export type DkStep = { ip: number; op: number; ended: boolean; failure: null } | FailedStep;

/**
 * Opcodes from input offset `ip` and output position `op` of `out` until the output reaches `stop`, the
 * end marker is read or the input ends; nothing is written at or past `room`, and `out` holds room for
 * `stop` plus one opcode (65 bytes). The `reach` bytes before `op` go in with the stream. Input is copied
 * as much as the output up to `stop` can take (a byte and a bit per output byte, at least one opcode), and
 * again while that was not enough (no-op opcodes produce nothing).
 */
export function daikatanaStep(
  input: Uint8Array,
  ip: number,
  out: Uint8Array,
  op: number,
  stop: number,
  room: number,
  reach: number,
): DkStep {
  for (;;) {
    const ahead = Math.max(Math.min(stop, room) - op, 0);
    const take = Math.min(input.length - ip, 2 * ahead + 2 * OPCODE_MAX);
    const limit = Math.max(Math.min(room, stop + OPCODE_MAX, out.length) - op, 0);
    const staged = stageStep(workspace, SLACK, input.subarray(ip, ip + take), out, op, reach, limit);
    const { exports, outputAt, history } = staged;
    const final = ip + take === input.length ? 1 : 0;
    // The room is capped where a call could not write anyway (a step stops at `stop`, plus one opcode).
    const q = exports.decode(take, outputAt, history, history + Math.min(stop - op, 2 ** 30), history + limit, final);
    const landed = landStep(staged, q, out, ip, op);
    if ('failure' in landed) return landed;
    ({ ip, op } = landed);
    if (exports.ended.value === 1 || op >= stop || final === 1) return { ip, op, ended: exports.ended.value === 1, failure: null };
  }
}
