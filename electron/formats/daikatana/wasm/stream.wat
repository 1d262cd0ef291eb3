;; Daikatana's PAK decompression in WebAssembly (the opcodes are in opcodes.ts), pure over the module's own
;; memory: stream.ts copies a piece of the stream in, with the output's last 257 bytes (the furthest a
;; back-reference reaches), and the new output out. Assembled by bin/wasm-build.mjs into stream.wasm.ts.
;;
;; Every opcode is checked against the input and the room it may fill before anything is written; the
;; copies then go in 8-byte words, writing up to 7 bytes past their end (the next opcode overwrites them)
;; and reading up to 7 past a literal. A back-reference from 8 bytes back and more copies words, each
;; word's source lying wholly before it, so an overlap repeats as the engine's byte loop does; from 2 to
;; 7 back it goes byte by byte.
;;
;; A failure returns a negative code, with `at` the opcode's input offset, `outAt` the output position and
;; `value` the bytes the opcode writes, or the back-reference's distance.
(module
  ;; Given by common/wasm.ts at the size the instance will need: growing it would detach buffers.
  (memory (import "codec" "memory") 1)
  (global $at (export "at") (mut i32) (i32.const 0))
  (global $outAt (export "outAt") (mut i32) (i32.const 0))
  (global $value (export "value") (mut i32) (i32.const 0))
  (global $ipEnd (export "ipEnd") (mut i32) (i32.const 0))
  (global $ended (export "ended") (mut i32) (i32.const 0))

  ;; The inEnd bytes at address 0 into the output at address w, from position q0 (the bytes before it are
  ;; the output so far, or as much of it as a back-reference reaches), opcode after opcode while the
  ;; position is below `stop`; nothing meant is written at or past `room`. When `final` is 0 more of the
  ;; stream follows these bytes, and an opcode they cut off is left for the next call. Returns the position
  ;; reached, `ipEnd` the input consumed and `ended` 1 after the end marker; or -1 an opcode past `room`
  ;; (value: its length), -2 a literal cut off (value: its length), -3 a run cut off before its byte, -4 a
  ;; back-reference cut off before its distance, -5 a back-reference before the start (value: its
  ;; distance), -6 the stream ends without the end marker.
  (func (export "decode") (param $inEnd i32) (param $w i32) (param $q0 i32) (param $stop i32) (param $room i32)
    (param $final i32) (result i32)
    (local $ip i32) (local $q i32) (local $x i32) (local $n i32) (local $d i32)
    (local $dst i32) (local $src i32) (local $end i32) (local $fill i64)
    (global.set $ended (i32.const 0))
    (local.set $q (local.get $q0))
    (block $done
      (loop $ops
        (br_if $done (i32.ge_s (local.get $q) (local.get $stop)))
        (if (i32.ge_s (local.get $ip) (local.get $inEnd))
          (then
            (br_if $done (i32.eqz (local.get $final)))
            (global.set $at (local.get $ip))
            (global.set $outAt (local.get $q))
            (return (i32.const -6))))
        (local.set $x (i32.load8_u (local.get $ip)))
        (global.set $at (local.get $ip))
        (global.set $outAt (local.get $q))
        (local.set $dst (i32.add (local.get $w) (local.get $q)))
        ;; 0x00-0x3F: x + 1 literal bytes.
        (if (i32.lt_u (local.get $x) (i32.const 0x40))
          (then
            (local.set $n (i32.add (local.get $x) (i32.const 1)))
            (if (i32.gt_s (i32.add (local.get $q) (local.get $n)) (local.get $room))
              (then (global.set $value (local.get $n)) (return (i32.const -1))))
            (if (i32.gt_s (i32.add (i32.add (local.get $ip) (i32.const 1)) (local.get $n)) (local.get $inEnd))
              (then
                (br_if $done (i32.eqz (local.get $final)))
                (global.set $value (local.get $n))
                (return (i32.const -2))))
            (local.set $src (i32.add (local.get $ip) (i32.const 1)))
            (local.set $end (i32.add (local.get $dst) (local.get $n)))
            (loop $words
              (i64.store (local.get $dst) (i64.load (local.get $src)))
              (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
              (local.set $src (i32.add (local.get $src) (i32.const 8)))
              (br_if $words (i32.lt_u (local.get $dst) (local.get $end))))
            (local.set $ip (i32.add (i32.add (local.get $ip) (i32.const 1)) (local.get $n)))
            (local.set $q (i32.add (local.get $q) (local.get $n)))
            (br $ops)))
        ;; 0xFE: a no-op; 0xFF: the end.
        (if (i32.ge_u (local.get $x) (i32.const 0xfe))
          (then
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (br_if $ops (i32.eq (local.get $x) (i32.const 0xfe)))
            (global.set $ended (i32.const 1))
            (br $done)))
        ;; 0x40-0x7F: x - 62 zeros; 0x80-0xBF: x - 126 times the next byte; 0xC0-0xFD: x - 190 bytes from
        ;; the next byte + 2 back.
        (local.set $n (i32.sub (local.get $x)
          (select (i32.const 62) (select (i32.const 126) (i32.const 190) (i32.lt_u (local.get $x) (i32.const 0xc0)))
            (i32.lt_u (local.get $x) (i32.const 0x80)))))
        (if (i32.gt_s (i32.add (local.get $q) (local.get $n)) (local.get $room))
          (then (global.set $value (local.get $n)) (return (i32.const -1))))
        (local.set $end (i32.add (local.get $dst) (local.get $n)))
        (local.set $q (i32.add (local.get $q) (local.get $n)))
        (if (i32.lt_u (local.get $x) (i32.const 0x80))
          (then
            (loop $zeros
              (i64.store (local.get $dst) (i64.const 0))
              (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
              (br_if $zeros (i32.lt_u (local.get $dst) (local.get $end))))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (br $ops)))
        (if (i32.ge_s (i32.add (local.get $ip) (i32.const 1)) (local.get $inEnd))
          (then
            (local.set $q (i32.sub (local.get $q) (local.get $n)))
            (br_if $done (i32.eqz (local.get $final)))
            (return (select (i32.const -3) (i32.const -4) (i32.lt_u (local.get $x) (i32.const 0xc0))))))
        (if (i32.lt_u (local.get $x) (i32.const 0xc0))
          (then
            (local.set $fill (i64.mul (i64.load8_u offset=1 (local.get $ip)) (i64.const 0x0101010101010101)))
            (loop $run
              (i64.store (local.get $dst) (local.get $fill))
              (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
              (br_if $run (i32.lt_u (local.get $dst) (local.get $end))))
            (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
            (br $ops)))
        (local.set $d (i32.add (i32.load8_u offset=1 (local.get $ip)) (i32.const 2)))
        (if (i32.gt_s (local.get $d) (i32.sub (local.get $q) (local.get $n)))
          (then (global.set $value (local.get $d)) (return (i32.const -5))))
        (local.set $src (i32.sub (local.get $dst) (local.get $d)))
        (if (i32.ge_u (local.get $d) (i32.const 8))
          (then
            (loop $copy
              (i64.store (local.get $dst) (i64.load (local.get $src)))
              (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
              (local.set $src (i32.add (local.get $src) (i32.const 8)))
              (br_if $copy (i32.lt_u (local.get $dst) (local.get $end)))))
          (else
            (loop $bytes
              (i32.store8 (local.get $dst) (i32.load8_u (local.get $src)))
              (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
              (local.set $src (i32.add (local.get $src) (i32.const 1)))
              (br_if $bytes (i32.lt_u (local.get $dst) (local.get $end))))))
        (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
        (br $ops)))
    (global.set $ipEnd (local.get $ip))
    (local.get $q))
)
