#include <malloc.h>

#include "alloc_stats.h"
#include "json.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten/heap.h>
#endif

namespace replicant {
namespace runtime {

namespace {

#define REPLICANT_STR2(x) #x
#define REPLICANT_STR(x) REPLICANT_STR2(x)

const char* Compiler() {
#if defined(__EMSCRIPTEN__)
  return "emscripten " REPLICANT_STR(__EMSCRIPTEN_major__) "." REPLICANT_STR(
      __EMSCRIPTEN_minor__) "." REPLICANT_STR(__EMSCRIPTEN_tiny__) " (clang " REPLICANT_STR(__clang_major__) "." REPLICANT_STR(__clang_minor__) "." REPLICANT_STR(__clang_patchlevel__) ")";
#elif defined(__clang__)
  return "clang " REPLICANT_STR(__clang_major__) "." REPLICANT_STR(__clang_minor__) "." REPLICANT_STR(
      __clang_patchlevel__);
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

void Field(std::string& b, const char* name, uint64_t v) {
  AppendUintField(b, name, v, false);
}

}  // namespace

std::string StatsJson() {
  std::string b = "{";
  AppendStringField(b, "runtime", "cpp", true);
  AppendStringField(b, "compiler", Compiler(), false);
#if defined(__EMSCRIPTEN__)
  AppendStringField(b, "target", "wasm32-emscripten", false);
#else
  AppendStringField(b, "target", "native", false);
#endif
  const AllocCounts c = ReadAllocCounts();
  if (c.counting) {
    Field(b, "alloc_bytes_total", c.alloc_bytes_total);
    Field(b, "allocs_total", c.allocs_total);
    Field(b, "frees_total", c.frees_total);
    Field(b, "live_bytes", c.alloc_bytes_total - c.freed_bytes_total);
    Field(b, "live_allocs", c.allocs_total - c.frees_total);
  } else {
    b.append(",\"alloc_bytes_total\":null,\"allocs_total\":null,\"frees_total\":null,"
             "\"live_bytes\":null,\"live_allocs\":null");
    AppendStringField(b, "note",
                      "operator new is not counted in this build (sanitizer build)", false);
  }
  // The allocator's own view: arena obtained from the system, bytes in use, bytes free.
#if defined(__EMSCRIPTEN__)
  Field(b, "heap_size_bytes", emscripten_get_heap_size());
  struct mallinfo mi = mallinfo();
  Field(b, "mallinfo_arena_bytes", static_cast<uint64_t>(static_cast<unsigned>(mi.arena)));
  Field(b, "mallinfo_in_use_bytes", static_cast<uint64_t>(static_cast<unsigned>(mi.uordblks)));
  Field(b, "mallinfo_free_bytes", static_cast<uint64_t>(static_cast<unsigned>(mi.fordblks)));
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 mi = mallinfo2();
  Field(b, "mallinfo_arena_bytes", mi.arena + mi.hblkhd);
  Field(b, "mallinfo_in_use_bytes", mi.uordblks + mi.hblkhd);
  Field(b, "mallinfo_free_bytes", mi.fordblks);
#endif
  AppendStringField(b, "gc", "none: memory is freed when its owner releases it", false);
  b.push_back('}');
  return b;
}

}  // namespace runtime
}  // namespace replicant
