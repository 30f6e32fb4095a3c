// Counting replacements of the global operator new and delete. Every allocation carries a
// small header holding its size, so that frees can be counted in bytes whichever form of
// delete the compiler chose (sized or not). Counters are relaxed atomics: the native server
// allocates from several threads.
#include <atomic>
#include <cstdlib>
#include <new>

#include "alloc_stats.h"

namespace {

// The header keeps the payload aligned as malloc aligned it (16 bytes on x86-64).
constexpr std::size_t kHeader = 16;

std::atomic<uint64_t> g_alloc_bytes{0};
std::atomic<uint64_t> g_allocs{0};
std::atomic<uint64_t> g_frees{0};
std::atomic<uint64_t> g_freed_bytes{0};

void Count(std::size_t size) {
  g_alloc_bytes.fetch_add(size, std::memory_order_relaxed);
  g_allocs.fetch_add(1, std::memory_order_relaxed);
}

void Uncount(std::size_t size) {
  g_freed_bytes.fetch_add(size, std::memory_order_relaxed);
  g_frees.fetch_add(1, std::memory_order_relaxed);
}

[[noreturn]] void OutOfMemory() {
#if defined(__cpp_exceptions)
  throw std::bad_alloc();
#else
  std::abort();
#endif
}

void* Allocate(std::size_t size) noexcept {
  void* base = std::malloc(size + kHeader);
  if (base == nullptr) return nullptr;
  *static_cast<std::size_t*>(base) = size;
  Count(size);
  return static_cast<char*>(base) + kHeader;
}

void Release(void* p) noexcept {
  if (p == nullptr) return;
  char* base = static_cast<char*>(p) - kHeader;
  Uncount(*reinterpret_cast<std::size_t*>(base));
  std::free(base);
}

std::size_t Offset(std::align_val_t al) {
  std::size_t a = static_cast<std::size_t>(al);
  return a > kHeader ? a : kHeader;
}

void* AllocateAligned(std::size_t size, std::align_val_t al) noexcept {
  const std::size_t off = Offset(al);
  void* base = nullptr;
  std::size_t align = static_cast<std::size_t>(al);
  if (align < sizeof(void*)) align = sizeof(void*);
  if (posix_memalign(&base, align, size + off) != 0) return nullptr;
  char* p = static_cast<char*>(base) + off;
  *reinterpret_cast<std::size_t*>(p - sizeof(std::size_t)) = size;
  Count(size);
  return p;
}

void ReleaseAligned(void* p, std::align_val_t al) noexcept {
  if (p == nullptr) return;
  char* q = static_cast<char*>(p);
  Uncount(*reinterpret_cast<std::size_t*>(q - sizeof(std::size_t)));
  std::free(q - Offset(al));
}

}  // namespace

namespace replicant {
namespace runtime {

AllocCounts ReadAllocCounts() {
  AllocCounts c;
  c.counting = true;
  c.alloc_bytes_total = g_alloc_bytes.load(std::memory_order_relaxed);
  c.allocs_total = g_allocs.load(std::memory_order_relaxed);
  c.frees_total = g_frees.load(std::memory_order_relaxed);
  c.freed_bytes_total = g_freed_bytes.load(std::memory_order_relaxed);
  return c;
}

}  // namespace runtime
}  // namespace replicant

void* operator new(std::size_t size) {
  void* p = Allocate(size);
  if (p == nullptr) OutOfMemory();
  return p;
}
void* operator new[](std::size_t size) {
  void* p = Allocate(size);
  if (p == nullptr) OutOfMemory();
  return p;
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return Allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return Allocate(size); }
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, std::size_t) noexcept { Release(p); }
void operator delete[](void* p, std::size_t) noexcept { Release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }

void* operator new(std::size_t size, std::align_val_t al) {
  void* p = AllocateAligned(size, al);
  if (p == nullptr) OutOfMemory();
  return p;
}
void* operator new[](std::size_t size, std::align_val_t al) {
  void* p = AllocateAligned(size, al);
  if (p == nullptr) OutOfMemory();
  return p;
}
void* operator new(std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return AllocateAligned(size, al);
}
void* operator new[](std::size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return AllocateAligned(size, al);
}
void operator delete(void* p, std::align_val_t al) noexcept { ReleaseAligned(p, al); }
void operator delete[](void* p, std::align_val_t al) noexcept { ReleaseAligned(p, al); }
void operator delete(void* p, std::size_t, std::align_val_t al) noexcept { ReleaseAligned(p, al); }
void operator delete[](void* p, std::size_t, std::align_val_t al) noexcept {
  ReleaseAligned(p, al);
}
void operator delete(void* p, std::align_val_t al, const std::nothrow_t&) noexcept {
  ReleaseAligned(p, al);
}
void operator delete[](void* p, std::align_val_t al, const std::nothrow_t&) noexcept {
  ReleaseAligned(p, al);
}
