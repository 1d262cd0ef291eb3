;; The 4 KB-window LZ77 decoders in WebAssembly: HPI's SQSH method 1 and Pangya's types 1 and 3 (formats.md),
;; pure over the module's own memory (lz-window.ts copies a stream in and the output out). Assembled by
;; bin/wasm-build.mjs into lz-window.wasm.ts.
;;
;; Both announce tokens 8 to a flag byte, LSB first, and cap a match at 17 bytes; they differ in how a match
;; word names its source. A flag group whose input and output are in bounds runs without checks and in
;; words: a literal run is copied as 8 bytes; a match from 8 or 4 bytes back and more in words, each
;; word's source lying wholly before it (so an overlap repeats as a byte loop does), from 1 back as the
;; byte repeated, from 2 or 3 back byte by byte. The copies write up to 8 bytes past their token (the next
;; token overwrites them) and read up to 24 bytes past the group's flag byte. The groups near either end
;; take a checked path, byte by byte. The match copy is written out in both decoders: as a function of its
;; own, called once a match, it cost a fifth of the HPI decoder's time (Node 20's V8 does not inline it).
;;
;; A failure returns a negative code, with `at` the input offset, `outAt` the output position and `value`
;; the match's distance or length where the message needs it.
(module
  ;; Given by common/wasm.ts at the size the instance will need: growing it would detach buffers.
  (memory (import "codec" "memory") 1)
  (global $at (export "at") (mut i32) (i32.const 0))
  (global $outAt (export "outAt") (mut i32) (i32.const 0))
  (global $value (export "value") (mut i32) (i32.const 0))
  (global $ipEnd (export "ipEnd") (mut i32) (i32.const 0))

  ;; $len bytes from $src to $dst, one at a time in order (an overlapping match sees what it has just written).
  (func $copyBytes (param $dst i32) (param $src i32) (param $len i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $dst) (local.get $len)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $dst) (local.get $end)))
        (i32.store8 (local.get $dst) (i32.load8_u (local.get $src)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
        (local.set $src (i32.add (local.get $src) (i32.const 1)))
        (br $bytes))))

  ;; HPI: the n bytes at address 0 into `size` bytes at address o. A match word's top 12 bits are an
  ;; ABSOLUTE ring index (0 ends the stream), its low 4 bits the length - 2. Output position q sits at
  ;; ring index (q + 1) & 0xFFF, so an index becomes a distance back in the output itself, and anything
  ;; before the output's start is one of the ring's initial zeros. Returns the bytes produced when the
  ;; stream ended, or -1 a literal past `size`, -2 a match cut off, -3 a match past `size` (value: its length).
  (func (export "hpi") (param $n i32) (param $size i32) (param $o i32) (result i32)
    (local $ip i32) (local $q i32) (local $flags i32) (local $v i32) (local $len i32)
    (local $d i32) (local $s i32) (local $lit i32) (local $zeros i32)
    (local $fastIn i32) (local $fastOut i32) (local $dst i32) (local $src i32) (local $w i64)
    (local.set $fastIn (i32.sub (local.get $n) (i32.const 24)))
    (local.set $fastOut (i32.sub (local.get $size) (i32.const 144)))
    (block $done
      (loop $outer
        (br_if $done (i32.ge_s (local.get $ip) (local.get $n)))
        (local.set $flags (i32.or (i32.load8_u (local.get $ip)) (i32.const 0x100)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (if (i32.and (i32.le_s (local.get $ip) (local.get $fastIn)) (i32.le_s (local.get $q) (local.get $fastOut)))
          (then
            ;; The sentinel bit above the 8 flags ends the group when it is shifted out.
            (loop $group
              (i64.store (i32.add (local.get $o) (local.get $q)) (i64.load (local.get $ip)))
              (local.set $lit (i32.ctz (local.get $flags)))
              (local.set $q (i32.add (local.get $q) (local.get $lit)))
              (local.set $ip (i32.add (local.get $ip) (local.get $lit)))
              (local.set $flags (i32.shr_u (local.get $flags) (i32.add (local.get $lit) (i32.const 1))))
              (br_if $outer (i32.eqz (local.get $flags)))
              (local.set $v (i32.load16_u (local.get $ip)))
              (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
              (br_if $done (i32.lt_u (local.get $v) (i32.const 16)))
              ;; Index 0 (after the subtraction) is the slot about to be overwritten: 4096 back.
              (local.set $d (i32.and (i32.sub (i32.add (local.get $q) (i32.const 1)) (i32.shr_u (local.get $v) (i32.const 4))) (i32.const 0xfff)))
              (if (i32.eqz (local.get $d)) (then (local.set $d (i32.const 4096))))
              (local.set $len (i32.add (i32.and (local.get $v) (i32.const 15)) (i32.const 2)))
              (local.set $s (i32.sub (local.get $q) (local.get $d)))
              (local.set $dst (i32.add (local.get $o) (local.get $q)))
              (local.set $q (i32.add (local.get $q) (local.get $len)))
              (if (i32.ge_s (local.get $s) (i32.const 0))
                (then
                  (local.set $src (i32.sub (local.get $dst) (local.get $d)))
                  (if (i32.ge_u (local.get $d) (i32.const 8))
                    (then
                      (i64.store (local.get $dst) (i64.load (local.get $src)))
                      (i64.store offset=8 (local.get $dst) (i64.load offset=8 (local.get $src)))
                      (i64.store offset=16 (local.get $dst) (i64.load offset=16 (local.get $src)))
                      (br $group)))
                  (if (i32.ge_u (local.get $d) (i32.const 4))
                    (then
                      (i32.store (local.get $dst) (i32.load (local.get $src)))
                      (i32.store offset=4 (local.get $dst) (i32.load offset=4 (local.get $src)))
                      (i32.store offset=8 (local.get $dst) (i32.load offset=8 (local.get $src)))
                      (i32.store offset=12 (local.get $dst) (i32.load offset=12 (local.get $src)))
                      (i32.store offset=16 (local.get $dst) (i32.load offset=16 (local.get $src)))
                      (br $group)))
                  (if (i32.eq (local.get $d) (i32.const 1))
                    (then
                      (local.set $w (i64.mul (i64.load8_u (local.get $src)) (i64.const 0x0101010101010101)))
                      (i64.store (local.get $dst) (local.get $w))
                      (i64.store offset=8 (local.get $dst) (local.get $w))
                      (i64.store offset=16 (local.get $dst) (local.get $w))
                      (br $group)))
                  (call $copyBytes (local.get $dst) (local.get $src) (local.get $len)))
                (else
                  (local.set $zeros (select (i32.sub (i32.const 0) (local.get $s)) (local.get $len)
                    (i32.lt_s (i32.sub (i32.const 0) (local.get $s)) (local.get $len))))
                  (memory.fill (local.get $dst) (i32.const 0) (local.get $zeros))
                  (call $copyBytes (i32.add (local.get $dst) (local.get $zeros)) (local.get $o)
                    (i32.sub (local.get $len) (local.get $zeros)))))
              (br $group)))
          (else
            (loop $tokens
              (if (i32.ne (local.get $flags) (i32.const 1))
                (then
                  (br_if $done (i32.ge_s (local.get $ip) (local.get $n)))
                  (if (i32.eqz (i32.and (local.get $flags) (i32.const 1)))
                    (then
                      (if (i32.ge_s (local.get $q) (local.get $size))
                        (then (global.set $at (local.get $ip)) (return (i32.const -1))))
                      (i32.store8 (i32.add (local.get $o) (local.get $q)) (i32.load8_u (local.get $ip)))
                      (local.set $q (i32.add (local.get $q) (i32.const 1)))
                      (local.set $ip (i32.add (local.get $ip) (i32.const 1))))
                    (else
                      (if (i32.gt_s (i32.add (local.get $ip) (i32.const 2)) (local.get $n))
                        (then (global.set $at (local.get $ip)) (return (i32.const -2))))
                      (local.set $v (i32.load16_u (local.get $ip)))
                      (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
                      (br_if $done (i32.lt_u (local.get $v) (i32.const 16)))
                      (local.set $len (i32.add (i32.and (local.get $v) (i32.const 15)) (i32.const 2)))
                      (if (i32.gt_s (i32.add (local.get $q) (local.get $len)) (local.get $size))
                        (then
                          (global.set $at (local.get $ip))
                          (global.set $outAt (local.get $q))
                          (global.set $value (local.get $len))
                          (return (i32.const -3))))
                      (local.set $d (i32.and (i32.sub (i32.add (local.get $q) (i32.const 1)) (i32.shr_u (local.get $v) (i32.const 4))) (i32.const 0xfff)))
                      (if (i32.eqz (local.get $d)) (then (local.set $d (i32.const 4096))))
                      (local.set $s (i32.sub (local.get $q) (local.get $d)))
                      (local.set $zeros (i32.const 0))
                      (if (i32.lt_s (local.get $s) (i32.const 0))
                        (then
                          (local.set $zeros (select (i32.sub (i32.const 0) (local.get $s)) (local.get $len)
                            (i32.lt_s (i32.sub (i32.const 0) (local.get $s)) (local.get $len))))
                          (memory.fill (i32.add (local.get $o) (local.get $q)) (i32.const 0) (local.get $zeros))))
                      (call $copyBytes (i32.add (i32.add (local.get $o) (local.get $q)) (local.get $zeros))
                        (i32.add (i32.add (local.get $o) (local.get $s)) (local.get $zeros))
                        (i32.sub (local.get $len) (local.get $zeros)))
                      (local.set $q (i32.add (local.get $q) (local.get $len)))))
                  (local.set $flags (i32.shr_u (local.get $flags) (i32.const 1)))
                  (br $tokens))))))
        (br $outer)))
    (local.get $q))

  ;; Pangya: the inEnd bytes at address 0 into the output at address w, from position q0 (the bytes before
  ;; it are the output so far, or as much of it as a match reaches), group after group while the position is
  ;; below `stop`. A match word (XORed with the group's pad in type 3) is a distance back in its low 12 bits
  ;; (1..4095, never before the output's start) and the length - 2 in its top 4; type 3 also flips the flag
  ;; bits with 0xC8 and picks the pad by bits 3..5 of the stored flag byte. Nothing is written at or past
  ;; `room`; a group runs unchecked only while it ends before `limit` (room, or where the caller's window
  ;; ends). Returns the position reached, `ipEnd` the input consumed, or -1 a literal at `room`, -2 a match
  ;; cut off, -3 a match before the start (value: its distance), -4 a match past `room` (value: its length).
  (func (export "pangya") (param $inEnd i32) (param $out i32) (param $q0 i32) (param $stop i32) (param $limit i32)
    (param $room i32) (param $obfuscated i32) (result i32)
    (local $ip i32) (local $q i32) (local $raw i32) (local $flags i32) (local $pad i32) (local $bit i32)
    (local $v i32) (local $d i32) (local $len i32) (local $lit i32) (local $fastIn i32) (local $fastOut i32)
    (local $dst i32) (local $src i32) (local $w i64)
    (local.set $q (local.get $q0))
    (local.set $fastIn (i32.sub (local.get $inEnd) (i32.const 24)))
    (local.set $fastOut (i32.sub (local.get $limit) (i32.const 144)))
    (block $done
      (loop $outer
        (br_if $done (i32.ge_s (local.get $ip) (local.get $inEnd)))
        (br_if $done (i32.ge_s (local.get $q) (local.get $stop)))
        (local.set $raw (i32.load8_u (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (local.set $flags (local.get $raw))
        (local.set $pad (i32.const 0))
        (if (local.get $obfuscated)
          (then
            (local.set $flags (i32.xor (local.get $raw) (i32.const 0xc8)))
            ;; The eight pads, 0xFF21 0x834F 0x675F 0x0034 0xF237 0x815F 0x4765 0x0233, four to a word.
            (local.set $pad (i32.wrap_i64 (i64.and (i64.shr_u
              (select (i64.const 0x0034675f834fff21) (i64.const 0x02334765815ff237)
                (i32.lt_u (i32.and (i32.shr_u (local.get $raw) (i32.const 3)) (i32.const 7)) (i32.const 4)))
              (i64.extend_i32_u (i32.shl (i32.and (i32.shr_u (local.get $raw) (i32.const 3)) (i32.const 3)) (i32.const 4))))
              (i64.const 0xffff))))))
        (if (i32.and (i32.le_s (local.get $ip) (local.get $fastIn)) (i32.le_s (local.get $q) (local.get $fastOut)))
          (then
            (local.set $flags (i32.or (local.get $flags) (i32.const 0x100)))
            (loop $group
              (i64.store (i32.add (local.get $out) (local.get $q)) (i64.load (local.get $ip)))
              (local.set $lit (i32.ctz (local.get $flags)))
              (local.set $q (i32.add (local.get $q) (local.get $lit)))
              (local.set $ip (i32.add (local.get $ip) (local.get $lit)))
              (local.set $flags (i32.shr_u (local.get $flags) (i32.add (local.get $lit) (i32.const 1))))
              (br_if $outer (i32.eqz (local.get $flags)))
              (local.set $v (i32.xor (i32.load16_u (local.get $ip)) (local.get $pad)))
              (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
              (local.set $d (i32.and (local.get $v) (i32.const 0xfff)))
              (if (i32.or (i32.eqz (local.get $d)) (i32.gt_s (local.get $d) (local.get $q)))
                (then
                  (global.set $at (i32.sub (local.get $ip) (i32.const 2)))
                  (global.set $outAt (local.get $q))
                  (global.set $value (local.get $d))
                  (return (i32.const -3))))
              (local.set $len (i32.add (i32.shr_u (local.get $v) (i32.const 12)) (i32.const 2)))
              (local.set $dst (i32.add (local.get $out) (local.get $q)))
              (local.set $q (i32.add (local.get $q) (local.get $len)))
              (local.set $src (i32.sub (local.get $dst) (local.get $d)))
              (if (i32.ge_u (local.get $d) (i32.const 8))
                (then
                  (i64.store (local.get $dst) (i64.load (local.get $src)))
                  (i64.store offset=8 (local.get $dst) (i64.load offset=8 (local.get $src)))
                  (i64.store offset=16 (local.get $dst) (i64.load offset=16 (local.get $src)))
                  (br $group)))
              (if (i32.ge_u (local.get $d) (i32.const 4))
                (then
                  (i32.store (local.get $dst) (i32.load (local.get $src)))
                  (i32.store offset=4 (local.get $dst) (i32.load offset=4 (local.get $src)))
                  (i32.store offset=8 (local.get $dst) (i32.load offset=8 (local.get $src)))
                  (i32.store offset=12 (local.get $dst) (i32.load offset=12 (local.get $src)))
                  (i32.store offset=16 (local.get $dst) (i32.load offset=16 (local.get $src)))
                  (br $group)))
              (if (i32.eq (local.get $d) (i32.const 1))
                (then
                  (local.set $w (i64.mul (i64.load8_u (local.get $src)) (i64.const 0x0101010101010101)))
                  (i64.store (local.get $dst) (local.get $w))
                  (i64.store offset=8 (local.get $dst) (local.get $w))
                  (i64.store offset=16 (local.get $dst) (local.get $w))
                  (br $group)))
              (call $copyBytes (local.get $dst) (local.get $src) (local.get $len))
              (br $group)))
          (else
            (local.set $bit (i32.const 0))
            (block $groupDone
              (loop $tokens
                (br_if $groupDone (i32.ge_u (local.get $bit) (i32.const 8)))
                (br_if $groupDone (i32.ge_s (local.get $ip) (local.get $inEnd)))
                (if (i32.eqz (i32.and (i32.shr_u (local.get $flags) (local.get $bit)) (i32.const 1)))
                  (then
                    (if (i32.ge_s (local.get $q) (local.get $room))
                      (then (global.set $at (local.get $ip)) (return (i32.const -1))))
                    (i32.store8 (i32.add (local.get $out) (local.get $q)) (i32.load8_u (local.get $ip)))
                    (local.set $q (i32.add (local.get $q) (i32.const 1)))
                    (local.set $ip (i32.add (local.get $ip) (i32.const 1))))
                  (else
                    (if (i32.gt_s (i32.add (local.get $ip) (i32.const 2)) (local.get $inEnd))
                      (then (global.set $at (local.get $ip)) (return (i32.const -2))))
                    (local.set $v (i32.xor (i32.load16_u (local.get $ip)) (local.get $pad)))
                    (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
                    (local.set $d (i32.and (local.get $v) (i32.const 0xfff)))
                    (local.set $len (i32.add (i32.shr_u (local.get $v) (i32.const 12)) (i32.const 2)))
                    (global.set $at (i32.sub (local.get $ip) (i32.const 2)))
                    (global.set $outAt (local.get $q))
                    (if (i32.or (i32.eqz (local.get $d)) (i32.gt_s (local.get $d) (local.get $q)))
                      (then (global.set $value (local.get $d)) (return (i32.const -3))))
                    (if (i32.gt_s (i32.add (local.get $q) (local.get $len)) (local.get $room))
                      (then (global.set $value (local.get $len)) (return (i32.const -4))))
                    (call $copyBytes (i32.add (local.get $out) (local.get $q))
                      (i32.sub (i32.add (local.get $out) (local.get $q)) (local.get $d)) (local.get $len))
                    (local.set $q (i32.add (local.get $q) (local.get $len)))))
                (local.set $bit (i32.add (local.get $bit) (i32.const 1)))
                (br $tokens)))))
        (br $outer)))
    (global.set $ipEnd (local.get $ip))
    (local.get $q))
)
