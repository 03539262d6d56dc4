target triple = "nvptx64-nvidia-cuda"
define void @f(i32* %x, i32* %out) {
  fence acquire
  ret void
}
