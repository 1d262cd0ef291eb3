;; HPI's position cipher, SQSH checksum and scramble in WebAssembly, pure over the module's own memory
;; (cipher.ts copies the bytes in and out). Assembled by bin/wasm-build.mjs into cipher.wasm.ts.
(module
  ;; Given by common/wasm.ts at the size the instance will need: growing it would detach buffers.
  (memory (import "codec" "memory") 1)
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
