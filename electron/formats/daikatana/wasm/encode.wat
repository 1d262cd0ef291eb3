;; Daikatana's PAK compression in WebAssembly (the opcodes are in opcodes.ts, the rule in encode.ts): a
;; greedy parse that takes, at each position, the cheapest cover among a zero run, a byte run and a
;; back-reference, else a literal byte. encode.ts copies a whole input in at `input` and the stream out.
;; Assembled by bin/wasm-build.mjs into encode.wasm.ts.
;;
;; The search, for a 257-byte window and copies of at most 63 bytes:
;; - hash chains over 4-byte prefixes find copies of 4 bytes and more (at most 64 links);
;; - else hash chains over 3-byte prefixes give the nearest copy of 3 bytes (at most 64 links), and exact
;;   chains of each 2-byte prefix the nearest copy of 2;
;; - only a copy longer than the run at the same position is looked for, and inside a run only its last 16
;;   positions are chained: the others share one prefix.
;; Every copy costs the same 2 bytes, so any copy of 3 bytes will do; the nearest is taken. The 2-byte
;; chains alone, walked for a third matching byte, made textures walk all 64 links at most positions.
;;
;; Memory: the chain heads and links, then the input, then the output. The tables hold absolute
;; positions: each input starts more than a window past the end of the last, so nothing an earlier input
;; left is ever followed and no table is cleared per input. 0 is out of every window (positions start at
;; 512); the tables are cleared only when positions near 2^30.
(module
  ;; Given by common/wasm.ts at the size the instance will need: growing it would detach buffers.
  (memory (import "codec" "memory") 7)
  ;; Heads: head2 (65536 × 4 bytes) at 0, head4 (16384 × 4) at 0x40000, head3 (16384 × 4) at 0x50000.
  ;; Links by position, each a ring of 512 (more than the window, so a live link is never overwritten):
  ;; prev2 at 0x60000, prev4 at 0x60800, prev3 at 0x61000. The input follows.
  (global (export "input") i32 (i32.const 0x61800))
  ;; Where the next input starts, as an absolute position (exported for a test to move it near the limit).
  (global $next (export "next") (mut i32) (i32.const 512))

  ;; Input offsets from..to as literal opcodes of up to 64 bytes at `op`; returns the new end.
  (func $literals (param $from i32) (param $to i32) (param $op i32) (result i32)
    (local $len i32)
    (block $done
      (loop $pieces
        (br_if $done (i32.ge_s (local.get $from) (local.get $to)))
        (local.set $len (select (i32.const 64) (i32.sub (local.get $to) (local.get $from))
          (i32.gt_s (i32.sub (local.get $to) (local.get $from)) (i32.const 64))))
        (i32.store8 (local.get $op) (i32.sub (local.get $len) (i32.const 1)))
        (memory.copy (i32.add (local.get $op) (i32.const 1)) (i32.add (local.get $from) (i32.const 0x61800)) (local.get $len))
        (local.set $op (i32.add (local.get $op) (i32.add (local.get $len) (i32.const 1))))
        (local.set $from (i32.add (local.get $from) (local.get $len)))
        (br $pieces)))
    (local.get $op))

  ;; The n input bytes as a stream at address `out`, with its end marker; returns the stream's length.
  ;; `out` must leave room for n + ceil(n / 64) + 1 bytes.
  (func (export "encode") (param $n i32) (param $out i32) (result i32)
    (local $i i32) (local $op i32) (local $litStart i32) (local $hashed i32)
    (local $b i32) (local $maxRun i32) (local $run i32) (local $pending i32)
    (local $zeroGain i32) (local $runGain i32) (local $matchGain i32)
    (local $maxLength i32) (local $length i32) (local $distance i32)
    (local $lowest i32) (local $c i32) (local $chain i32) (local $from i32) (local $d i32)
    (local $limit i32) (local $len i32) (local $base i32)
    (local $abs i32) (local $slot i32) (local $head i32) (local $word i32)
    (if (i32.gt_u (i32.add (i32.add (global.get $next) (local.get $n)) (i32.const 1024)) (i32.const 0x40000000))
      (then
        (memory.fill (i32.const 0) (i32.const 0) (i32.const 0x61800))
        (global.set $next (i32.const 512))))
    (local.set $base (global.get $next))
    (global.set $next (i32.add (i32.add (global.get $next) (local.get $n)) (i32.const 512)))
    (local.set $op (local.get $out))
    (block $end
      (loop $positions
        (br_if $end (i32.ge_s (local.get $i) (local.get $n)))
        ;; The positions passed since the last visit join their chains: the pair's, and the 3- and 4-byte
        ;; prefixes' (hashed to 12 bits: the window holds 257 positions) where 3 and 4 bytes remain.
        (block $chained
          (loop $unchained
            (br_if $chained (i32.ge_s (local.get $hashed) (local.get $i)))
            (local.set $abs (i32.add (local.get $base) (local.get $hashed)))
            (local.set $slot (i32.shl (i32.and (local.get $abs) (i32.const 511)) (i32.const 2)))
            (local.set $word (i32.load offset=0x61800 (local.get $hashed)))
            (local.set $head (i32.shl (i32.and (local.get $word) (i32.const 0xffff)) (i32.const 2)))
            (i32.store offset=0x60000 (local.get $slot) (i32.load (local.get $head)))
            (i32.store (local.get $head) (local.get $abs))
            (if (i32.le_s (local.get $hashed) (i32.sub (local.get $n) (i32.const 3)))
              (then
                (local.set $head (i32.shl (i32.shr_u (i32.mul (i32.and (local.get $word) (i32.const 0xffffff)) (i32.const 0x9e3779b1)) (i32.const 20)) (i32.const 2)))
                (i32.store offset=0x61000 (local.get $slot) (i32.load offset=0x50000 (local.get $head)))
                (i32.store offset=0x50000 (local.get $head) (local.get $abs))
                (if (i32.le_s (local.get $hashed) (i32.sub (local.get $n) (i32.const 4)))
                  (then
                    (local.set $head (i32.shl (i32.shr_u (i32.mul (local.get $word) (i32.const 0x9e3779b1)) (i32.const 20)) (i32.const 2)))
                    (i32.store offset=0x60800 (local.get $slot) (i32.load offset=0x40000 (local.get $head)))
                    (i32.store offset=0x40000 (local.get $head) (local.get $abs))))))
            (local.set $hashed (i32.add (local.get $hashed) (i32.const 1)))
            (br $unchained)))
        (local.set $b (i32.load8_u offset=0x61800 (local.get $i)))
        (local.set $maxRun (i32.sub (local.get $n) (local.get $i)))
        (if (i32.gt_s (local.get $maxRun) (i32.const 65)) (then (local.set $maxRun (i32.const 65))))
        (local.set $run (i32.const 1))
        (block $runEnd
          (loop $runBytes
            (br_if $runEnd (i32.ge_s (local.get $run) (local.get $maxRun)))
            (br_if $runEnd (i32.ne (i32.load8_u offset=0x61800 (i32.add (local.get $i) (local.get $run))) (local.get $b)))
            (local.set $run (i32.add (local.get $run) (i32.const 1)))
            (br $runBytes)))
        (local.set $pending (i32.gt_s (local.get $i) (local.get $litStart)))
        ;; Saving of each choice over literals: covered bytes minus its cost. A 2-byte cover pays only
        ;; when no literal is pending.
        (local.set $zeroGain (select (i32.sub (local.get $run) (i32.const 1)) (i32.const 0)
          (i32.and (i32.eqz (local.get $b)) (i32.ge_s (local.get $run) (i32.const 2)))))
        (local.set $runGain (select (i32.sub (local.get $run) (i32.const 2)) (i32.const -1)
          (i32.or (i32.ge_s (local.get $run) (i32.const 3))
            (i32.and (i32.eq (local.get $run) (i32.const 2)) (i32.eqz (local.get $pending))))))
        ;; A copy beats the run only when longer (than the run + 1 for zeros, whose opcode costs 1 byte).
        (local.set $maxLength (i32.sub (local.get $n) (local.get $i)))
        (if (i32.gt_s (local.get $maxLength) (i32.const 63)) (then (local.set $maxLength (i32.const 63))))
        (local.set $length
          (if (result i32) (i32.lt_s (local.get $run) (i32.const 2))
            (then (i32.const 1))
            (else (i32.add (local.get $run) (i32.eqz (local.get $b))))))
        (local.set $distance (i32.const 0))
        (if (i32.lt_s (local.get $length) (local.get $maxLength))
          (then
            (local.set $lowest (i32.sub (i32.add (local.get $base) (local.get $i)) (i32.const 257)))
            (if (i32.lt_s (i32.add (local.get $i) (i32.const 3)) (local.get $n))
              (then
                (local.set $c (i32.load offset=0x40000 (i32.shl (i32.shr_u (i32.mul (i32.load offset=0x61800 (local.get $i)) (i32.const 0x9e3779b1)) (i32.const 20)) (i32.const 2))))
                (local.set $chain (i32.const 64))
                (block $found
                  (loop $links
                    (br_if $found (i32.lt_u (local.get $c) (local.get $lowest)))
                    (br_if $found (i32.eqz (local.get $chain)))
                    (local.set $from (i32.sub (local.get $c) (local.get $base)))
                    (local.set $d (i32.sub (local.get $i) (local.get $from)))
                    (local.set $limit (select (local.get $d) (local.get $maxLength) (i32.lt_s (local.get $d) (local.get $maxLength))))
                    ;; The byte just past the best so far first: most candidates fail there (and hashes collide).
                    (if (i32.and
                          (i32.gt_s (local.get $limit) (local.get $length))
                          (i32.and
                            (i32.eq (i32.load8_u offset=0x61800 (i32.add (local.get $from) (local.get $length)))
                              (i32.load8_u offset=0x61800 (i32.add (local.get $i) (local.get $length))))
                            (i32.eq (i32.load8_u offset=0x61800 (local.get $from)) (local.get $b))))
                      (then
                        (local.set $len (i32.const 1))
                        (block $differs
                          (loop $bytes
                            (br_if $differs (i32.ge_s (local.get $len) (local.get $limit)))
                            (br_if $differs
                              (i32.ne (i32.load8_u offset=0x61800 (i32.add (local.get $from) (local.get $len)))
                                (i32.load8_u offset=0x61800 (i32.add (local.get $i) (local.get $len)))))
                            (local.set $len (i32.add (local.get $len) (i32.const 1)))
                            (br $bytes)))
                        (if (i32.gt_s (local.get $len) (local.get $length))
                          (then
                            (local.set $length (local.get $len))
                            (local.set $distance (local.get $d))
                            (br_if $found (i32.eq (local.get $len) (local.get $maxLength)))))))
                    (local.set $c (i32.load offset=0x60800 (i32.shl (i32.and (local.get $c) (i32.const 511)) (i32.const 2))))
                    (local.set $chain (i32.sub (local.get $chain) (i32.const 1)))
                    (br $links)))))
            ;; The nearest copy of 3 bytes.
            (if (i32.and (i32.lt_s (local.get $length) (i32.const 3)) (i32.ge_s (local.get $maxLength) (i32.const 3)))
              (then
                (local.set $c (i32.load offset=0x50000 (i32.shl (i32.shr_u (i32.mul (i32.and (i32.load offset=0x61800 (local.get $i)) (i32.const 0xffffff)) (i32.const 0x9e3779b1)) (i32.const 20)) (i32.const 2))))
                (local.set $chain (i32.const 64))
                (block $found
                  (loop $links
                    (br_if $found (i32.lt_u (local.get $c) (local.get $lowest)))
                    (br_if $found (i32.eqz (local.get $chain)))
                    (local.set $from (i32.sub (local.get $c) (local.get $base)))
                    (local.set $d (i32.sub (local.get $i) (local.get $from)))
                    (if (i32.and (i32.ge_s (local.get $d) (i32.const 3))
                          (i32.eq
                            (i32.and (i32.load offset=0x61800 (local.get $from)) (i32.const 0xffffff))
                            (i32.and (i32.load offset=0x61800 (local.get $i)) (i32.const 0xffffff))))
                      (then
                        (local.set $length (i32.const 3))
                        (local.set $distance (local.get $d))
                        (br $found)))
                    (local.set $c (i32.load offset=0x61000 (i32.shl (i32.and (local.get $c) (i32.const 511)) (i32.const 2))))
                    (local.set $chain (i32.sub (local.get $chain) (i32.const 1)))
                    (br $links)))))
            ;; Else the nearest copy of 2 (its chain holds only that pair: the first link 2 back or more),
            ;; which pays only where no literal is pending.
            (if (i32.and (i32.lt_s (local.get $length) (i32.const 2)) (i32.eqz (local.get $pending)))
              (then
                (local.set $c (i32.load (i32.shl (i32.load16_u offset=0x61800 (local.get $i)) (i32.const 2))))
                (block $found
                  (loop $links
                    (br_if $found (i32.lt_u (local.get $c) (local.get $lowest)))
                    (local.set $d (i32.sub (i32.add (local.get $base) (local.get $i)) (local.get $c)))
                    (if (i32.ge_s (local.get $d) (i32.const 2))
                      (then
                        (local.set $length (i32.const 2))
                        (local.set $distance (local.get $d))
                        (br $found)))
                    (local.set $c (i32.load offset=0x60000 (i32.shl (i32.and (local.get $c) (i32.const 511)) (i32.const 2))))
                    (br $links)))))))
        (local.set $matchGain
          (if (result i32) (i32.eqz (local.get $distance))
            (then (i32.const -1))
            (else
              (select (i32.sub (local.get $length) (i32.const 2)) (i32.const -1)
                (i32.or (i32.ge_s (local.get $length) (i32.const 3)) (i32.eqz (local.get $pending)))))))
        (block $covered
          ;; A zero run (1 byte).
          (if (i32.and (i32.gt_s (local.get $zeroGain) (i32.const 0))
                (i32.and (i32.ge_s (local.get $zeroGain) (local.get $runGain)) (i32.ge_s (local.get $zeroGain) (local.get $matchGain))))
            (then
              (local.set $op (call $literals (local.get $litStart) (local.get $i) (local.get $op)))
              (i32.store8 (local.get $op) (i32.add (i32.const 0x40) (i32.sub (local.get $run) (i32.const 2))))
              (local.set $op (i32.add (local.get $op) (i32.const 1)))
              (br $covered)))
          ;; A byte run (2 bytes).
          (if (i32.and (i32.ge_s (local.get $runGain) (i32.const 0)) (i32.ge_s (local.get $runGain) (local.get $matchGain)))
            (then
              (local.set $op (call $literals (local.get $litStart) (local.get $i) (local.get $op)))
              (i32.store8 (local.get $op) (i32.add (i32.const 0x80) (i32.sub (local.get $run) (i32.const 2))))
              (i32.store8 offset=1 (local.get $op) (local.get $b))
              (local.set $op (i32.add (local.get $op) (i32.const 2)))
              (br $covered)))
          ;; A back-reference (2 bytes).
          (if (i32.ge_s (local.get $matchGain) (i32.const 0))
            (then
              (local.set $op (call $literals (local.get $litStart) (local.get $i) (local.get $op)))
              (i32.store8 (local.get $op) (i32.add (i32.const 0xc0) (i32.sub (local.get $length) (i32.const 2))))
              (i32.store8 offset=1 (local.get $op) (i32.sub (local.get $distance) (i32.const 2)))
              (local.set $op (i32.add (local.get $op) (i32.const 2)))
              (local.set $i (i32.add (local.get $i) (local.get $length)))
              (local.set $litStart (local.get $i))
              (br $positions)))
          ;; A literal byte.
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $positions))
        ;; After a run, only its last positions are chained.
        (if (i32.gt_s (local.get $run) (i32.const 16))
          (then (local.set $hashed (i32.sub (i32.add (local.get $i) (local.get $run)) (i32.const 16)))))
        (local.set $i (i32.add (local.get $i) (local.get $run)))
        (local.set $litStart (local.get $i))
        (br $positions)))
    (local.set $op (call $literals (local.get $litStart) (local.get $n) (local.get $op)))
    (i32.store8 (local.get $op) (i32.const 0xff))
    (i32.sub (i32.add (local.get $op) (i32.const 1)) (local.get $out)))
)
