target triple = "nvptx64-nvidia-cuda"
define void @f(i32* %x, i32* %out) {
  store atomic i32 1, i32* %x monotonic, align 4
  ret void
}
