target triple = "nvptx64-nvidia-cuda"
define void @f(i32* %x, i32* %out) {
  %r = load atomic i32, i32* %x syncscope("block") monotonic, align 4
  store i32 %r, i32* %out, align 4
  ret void
}
