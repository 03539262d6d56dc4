target triple = "nvptx64-nvidia-cuda"
define void @f(i32* %x, i32* %out) {
  %r = cmpxchg i32* %x, i32 0, i32 1 monotonic monotonic
  %v = extractvalue { i32, i1 } %r, 0
  store i32 %v, i32* %out, align 4
  ret void
}
