target triple = "nvptx64-nvidia-cuda"
define void @f(i32* %x, i32* %out) {
  %r = atomicrmw add i32* %x, i32 1 monotonic
  store i32 %r, i32* %out, align 4
  ret void
}
