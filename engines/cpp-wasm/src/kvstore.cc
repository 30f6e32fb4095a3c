#include "kvstore.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>

namespace replicant {

namespace {
constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
constexpr size_t kMinSlots = 16;
}  // namespace

uint64_t EntryHash(std::string_view key, std::string_view value) {
  uint64_t h = kFnvOffsetBasis;
  for (unsigned char c : key) h = (h ^ c) * kFnvPrime;
  h *= kFnvPrime;  // the zero separator: h ^ 0 == h
  for (unsigned char c : value) h = (h ^ c) * kFnvPrime;
  return h;
}

KVStore::Entry* KVStore::NewEntry(std::string_view key, std::string_view value) {
  // Lengths fit 32 bits: a client line is at most 1 MiB (server/limits.h) and a wasm32
  // address space is 4 GiB.
  void* p = ::operator new(sizeof(Entry) + key.size() + value.size());
  Entry* e = static_cast<Entry*>(p);
  e->key_len = static_cast<uint32_t>(key.size());
  e->value_len = static_cast<uint32_t>(value.size());
  if (!key.empty()) std::memcpy(e->Bytes(), key.data(), key.size());
  if (!value.empty()) std::memcpy(e->Bytes() + key.size(), value.data(), value.size());
  return e;
}

void KVStore::FreeEntry(Entry* e) { ::operator delete(static_cast<void*>(e)); }

KVStore::KVStore(const KVStore& o) : slots_(o.slots_.size(), nullptr), size_(o.size_), digest_(o.digest_) {
  for (size_t i = 0; i < o.slots_.size(); i++) {
    if (o.slots_[i] != nullptr) slots_[i] = NewEntry(o.slots_[i]->Key(), o.slots_[i]->Value());
  }
}

KVStore::KVStore(KVStore&& o) noexcept
    : slots_(std::move(o.slots_)), size_(o.size_), digest_(o.digest_) {
  o.slots_.clear();
  o.size_ = 0;
  o.digest_ = 0;
}

KVStore& KVStore::operator=(KVStore o) noexcept {
  std::swap(slots_, o.slots_);
  std::swap(size_, o.size_);
  std::swap(digest_, o.digest_);
  return *this;
}

KVStore::~KVStore() {
  for (Entry* e : slots_) {
    if (e != nullptr) FreeEntry(e);
  }
}

size_t KVStore::Home(std::string_view key) const {
  return std::hash<std::string_view>{}(key) & (slots_.size() - 1);
}

size_t KVStore::Find(std::string_view key) const {
  if (slots_.empty()) return 0;
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(key);; i = (i + 1) & mask) {
    const Entry* e = slots_[i];
    if (e == nullptr) return slots_.size();
    if (e->Key() == key) return i;
  }
}

void KVStore::Place(Entry* e) {
  const size_t mask = slots_.size() - 1;
  size_t i = Home(e->Key());
  while (slots_[i] != nullptr) i = (i + 1) & mask;
  slots_[i] = e;
}

void KVStore::Grow() {
  std::vector<Entry*> old(std::max(kMinSlots, slots_.size() * 2), nullptr);
  old.swap(slots_);
  for (Entry* e : old) {
    if (e != nullptr) Place(e);
  }
}

void KVStore::EraseSlot(size_t i) {
  const size_t mask = slots_.size() - 1;
  // Backward shift: walk the run after i and move back every entry whose home slot does not
  // lie cyclically in (i, j], so every remaining key stays reachable from its home.
  for (size_t j = (i + 1) & mask; slots_[j] != nullptr; j = (j + 1) & mask) {
    const size_t home = Home(slots_[j]->Key());
    const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (!stays) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i] = nullptr;
  size_--;
}

Result KVStore::Apply(const Command& c) {
  Result r;
  switch (c.type) {
    case CommandType::kGet: {
      const size_t i = Find(c.key);
      if (i == slots_.size()) {
        r.type = ResultType::kNotFound;
      } else {
        r.value.assign(slots_[i]->Value());
      }
      return r;
    }
    case CommandType::kPut: {
      const size_t i = Find(c.key);
      if (i != slots_.size()) {
        Entry* e = slots_[i];
        digest_ -= EntryHash(c.key, e->Value());
        if (e->value_len == c.value.size()) {
          if (!c.value.empty()) std::memcpy(e->Bytes() + e->key_len, c.value.data(), c.value.size());
        } else {
          slots_[i] = NewEntry(c.key, c.value);
          FreeEntry(e);
        }
      } else {
        // At most 3/4 full, so a probe run ends at an empty slot.
        if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
        Place(NewEntry(c.key, c.value));
        size_++;
      }
      digest_ += EntryHash(c.key, c.value);
      return r;
    }
    case CommandType::kNoop:
      return r;
    case CommandType::kDel:
    default: {
      const size_t i = Find(c.key);
      if (i == slots_.size()) {
        r.type = ResultType::kNotFound;
        return r;
      }
      digest_ -= EntryHash(c.key, slots_[i]->Value());
      FreeEntry(slots_[i]);
      EraseSlot(i);
      return r;
    }
  }
}

std::vector<std::pair<std::string, std::string>> KVStore::FirstEntries(size_t limit) const {
  std::vector<const Entry*> all;
  all.reserve(size_);
  for (const Entry* e : slots_) {
    if (e != nullptr) all.push_back(e);
  }
  size_t n = std::min(limit, all.size());
  // string_view compares as unsigned bytes (char_traits<char>::compare is memcmp-like).
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    [](const Entry* a, const Entry* b) { return a->Key() < b->Key(); });
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) out.emplace_back(all[i]->Key(), all[i]->Value());
  return out;
}

size_t KVStore::HeapBytes() const {
  size_t bytes = slots_.capacity() * sizeof(Entry*);
  for (const Entry* e : slots_) {
    if (e != nullptr) bytes += sizeof(Entry) + e->key_len + e->value_len;
  }
  return bytes;
}

}  // namespace replicant
