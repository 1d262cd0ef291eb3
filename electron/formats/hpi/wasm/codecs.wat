;; HPI's SQSH codecs in WebAssembly, pure over the module's own memory (see codecs.ts, which copies a
;; payload in and the result out). Assembled by bin/wasm-build.mjs into codecs.wasm.ts.
;;
;; decode: LZ77 (SQSH method 1, formats.md), the n bytes at address 0 into `size` bytes at address o.
;; Output position q sits at ring index (q + 1) & 0xFFF, so a match's absolute index becomes a distance
;; back in the output itself, and anything before the output's start is one of the ring's initial zeros.
;; A flag group whose input and output are in bounds runs without checks and in words: the copies write
;; up to 8 bytes past their token (the next token overwrites them), read up to 24 bytes past the group's
;; flag byte, and a word's source always lies wholly before it, so an overlapping match repeats as a byte
;; loop does. The last groups take the checked path, byte by byte.
;; Returns the bytes produced when the stream ended, or a failure: -1 a literal past `size`, -2 a match
;; cut off, -3 a match past `size`; `at` is then the input offset, and for -3 `outAt` and `length` are
;; the match's output position and length.
(module
  (memory (export "memory") 1)
  (global $at (export "at") (mut i32) (i32.const 0))
  (global $outAt (export "outAt") (mut i32) (i32.const 0))
  (global $length (export "length") (mut i32) (i32.const 0))
  (func (export "decode") (param $n i32) (param $size i32) (param $o i32) (result i32)
    (local $ip i32) (local $q i32) (local $flags i32) (local $v i32) (local $len i32)
    (local $d i32) (local $s i32) (local $lit i32) (local $end i32) (local $zeros i32)
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
            (loop $group
              (local.set $dst (i32.add (local.get $o) (local.get $q)))
              (i64.store (local.get $dst) (i64.load (local.get $ip)))
              (local.set $lit (i32.ctz (local.get $flags)))
              (local.set $q (i32.add (local.get $q) (local.get $lit)))
              (local.set $ip (i32.add (local.get $ip) (local.get $lit)))
              (local.set $flags (i32.shr_u (local.get $flags) (i32.add (local.get $lit) (i32.const 1))))
              (br_if $outer (i32.eqz (local.get $flags)))
              (local.set $v (i32.load16_u (local.get $ip)))
              (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
              (br_if $done (i32.lt_u (local.get $v) (i32.const 16)))
              (local.set $d (i32.and (i32.sub (i32.add (local.get $q) (i32.const 1)) (i32.shr_u (local.get $v) (i32.const 4))) (i32.const 0xfff)))
              (if (i32.eqz (local.get $d)) (then (local.set $d (i32.const 4096))))
              (local.set $len (i32.add (i32.and (local.get $v) (i32.const 15)) (i32.const 2)))
              (local.set $s (i32.sub (local.get $q) (local.get $d)))
              (local.set $dst (i32.add (local.get $o) (local.get $q)))
              (local.set $src (i32.add (local.get $o) (local.get $s)))
              (local.set $q (i32.add (local.get $q) (local.get $len)))
              (if (i32.ge_s (local.get $s) (i32.const 0))
                (then
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
                      (br $group))))
                (else
                  (local.set $zeros (select (i32.sub (i32.const 0) (local.get $s)) (local.get $len)
                    (i32.lt_s (i32.sub (i32.const 0) (local.get $s)) (local.get $len))))
                  (memory.fill (local.get $dst) (i32.const 0) (local.get $zeros))
                  (local.set $dst (i32.add (local.get $dst) (local.get $zeros)))
                  (local.set $src (local.get $o))
                  (local.set $len (i32.sub (local.get $len) (local.get $zeros)))
                  (br_if $group (i32.eqz (local.get $len)))))
              ;; d of 2 or 3, or what follows the zeros: byte by byte, in order
              (local.set $end (i32.add (local.get $dst) (local.get $len)))
              (loop $bytes
                (i32.store8 (local.get $dst) (i32.load8_u (local.get $src)))
                (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
                (local.set $src (i32.add (local.get $src) (i32.const 1)))
                (br_if $bytes (i32.lt_u (local.get $dst) (local.get $end))))
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
                      (local.set $end (i32.add (local.get $q) (local.get $len)))
                      (if (i32.gt_s (local.get $end) (local.get $size))
                        (then
                          (global.set $at (local.get $ip))
                          (global.set $outAt (local.get $q))
                          (global.set $length (local.get $len))
                          (return (i32.const -3))))
                      (local.set $d (i32.and (i32.sub (i32.add (local.get $q) (i32.const 1)) (i32.shr_u (local.get $v) (i32.const 4))) (i32.const 0xfff)))
                      (if (i32.eqz (local.get $d)) (then (local.set $d (i32.const 4096))))
                      (local.set $s (i32.sub (local.get $q) (local.get $d)))
                      (if (i32.lt_s (local.get $s) (i32.const 0))
                        (then
                          (local.set $zeros (select (i32.sub (i32.const 0) (local.get $s)) (local.get $len)
                            (i32.lt_s (i32.sub (i32.const 0) (local.get $s)) (local.get $len))))
                          (memory.fill (i32.add (local.get $o) (local.get $q)) (i32.const 0) (local.get $zeros))
                          (local.set $q (i32.add (local.get $q) (local.get $zeros)))
                          (local.set $s (i32.add (local.get $s) (local.get $zeros)))))
                      (block $copied
                        (loop $bytes
                          (br_if $copied (i32.ge_s (local.get $q) (local.get $end)))
                          (i32.store8 (i32.add (local.get $o) (local.get $q)) (i32.load8_u (i32.add (local.get $o) (local.get $s))))
                          (local.set $q (i32.add (local.get $q) (i32.const 1)))
                          (local.set $s (i32.add (local.get $s) (i32.const 1)))
                          (br $bytes)))))
                  (local.set $flags (i32.shr_u (local.get $flags) (i32.const 1)))
                  (br $tokens))))))
        (br $outer)))
    (local.get $q))
  ;; decipher: the position cipher taken off the n bytes at address 0, in place, for bytes that sit at
  ;; file position `start` (only its low 8 bits count) with key K: b = raw ^ ((start + i) & mask) ^ K, where
  ;; a SQSH payload's mask is 0 for K = 0 (no cipher, not even the position) and 0xFF otherwise. Returns the
  ;; u32 byte sum of b (the SQSH checksum is over the payload as stored, still scrambled), and when
  ;; `scrambled` undoes the SQSH scramble, ((b - i) ^ i) & 0xFF with i taken mod 256. Sixteen bytes at a
  ;; time: the key stream and the scramble repeat every 256 bytes, and byte lanes wrap as the format's
  ;; 8-bit arithmetic does.
  (func (export "decipher") (param $n i32) (param $start i32) (param $key i32) (param $mask i32) (param $scrambled i32) (result i32)
    (local $i i32) (local $whole i32) (local $sum i32) (local $x i32)
    (local $b v128) (local $k v128) (local $sums v128)
    (local.set $whole (i32.and (local.get $n) (i32.const -16)))
    (block $vectorsDone
      (loop $vectors
        (br_if $vectorsDone (i32.ge_u (local.get $i) (local.get $whole)))
        (local.set $b (v128.xor (v128.load (local.get $i))
          (v128.xor
            (v128.and
              (i8x16.add (i8x16.splat (i32.add (local.get $start) (local.get $i)))
                (v128.const i8x16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15))
              (i8x16.splat (local.get $mask)))
            (i8x16.splat (local.get $key)))))
        ;; Four u32 lanes: they wrap mod 2^32 as the format's sum does.
        (local.set $sums (i32x4.add (local.get $sums)
          (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $b)))))
        (if (local.get $scrambled)
          (then
            (local.set $k (i8x16.add (i8x16.splat (local.get $i))
              (v128.const i8x16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)))
            (local.set $b (v128.xor (i8x16.sub (local.get $b) (local.get $k)) (local.get $k)))))
        (v128.store (local.get $i) (local.get $b))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $vectors)))
    (local.set $sum (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $sums)) (i32x4.extract_lane 1 (local.get $sums)))
      (i32.add (i32x4.extract_lane 2 (local.get $sums)) (i32x4.extract_lane 3 (local.get $sums)))))
    (block $bytesDone
      (loop $bytes
        (br_if $bytesDone (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (i32.xor (i32.xor (i32.load8_u (local.get $i))
          (i32.and (i32.add (local.get $start) (local.get $i)) (local.get $mask))) (local.get $key)))
        (local.set $sum (i32.add (local.get $sum) (local.get $x)))
        (if (local.get $scrambled)
          (then (local.set $x (i32.xor
            (i32.sub (local.get $x) (i32.and (local.get $i) (i32.const 0xff)))
            (i32.and (local.get $i) (i32.const 0xff))))))
        (i32.store8 (local.get $i) (local.get $x))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $bytes)))
    (local.get $sum))
)
