#include "kvstore.h"

#include <algorithm>

namespace replicant {

namespace {
constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
}  // namespace

uint64_t EntryHash(std::string_view key, std::string_view value) {
  uint64_t h = kFnvOffsetBasis;
  for (unsigned char c : key) h = (h ^ c) * kFnvPrime;
  h *= kFnvPrime;  // the zero separator: h ^ 0 == h
  for (unsigned char c : value) h = (h ^ c) * kFnvPrime;
  return h;
}

Result KVStore::Apply(const Command& c) {
  Result r;
  switch (c.type) {
    case CommandType::kGet: {
      auto it = entries_.find(c.key);
      if (it == entries_.end()) {
        r.type = ResultType::kNotFound;
      } else {
        r.value = it->second;
      }
      return r;
    }
    case CommandType::kPut: {
      auto it = entries_.find(c.key);
      if (it != entries_.end()) {
        digest_ -= EntryHash(c.key, it->second);
        it->second = c.value;
      } else {
        entries_.emplace(c.key, c.value);
      }
      digest_ += EntryHash(c.key, c.value);
      return r;
    }
    case CommandType::kNoop:
      return r;
    case CommandType::kDel:
    default: {
      auto it = entries_.find(c.key);
      if (it == entries_.end()) {
        r.type = ResultType::kNotFound;
        return r;
      }
      digest_ -= EntryHash(c.key, it->second);
      entries_.erase(it);
      return r;
    }
  }
}

std::vector<std::pair<std::string, std::string>> KVStore::FirstEntries(size_t limit) const {
  using Entry = const std::pair<const std::string, std::string>*;
  std::vector<Entry> all;
  all.reserve(entries_.size());
  for (const auto& e : entries_) all.push_back(&e);
  size_t n = std::min(limit, all.size());
  // std::string compares as unsigned bytes (char_traits<char>::compare is memcmp-like).
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    [](Entry a, Entry b) { return a->first < b->first; });
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) out.emplace_back(all[i]->first, all[i]->second);
  return out;
}

}  // namespace replicant
