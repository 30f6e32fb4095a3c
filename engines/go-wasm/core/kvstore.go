package core

import "sort"

// KVStore is the replicated state machine: a hash map with a running digest, so that two
// replicas can be compared in O(1).
type KVStore struct {
	entries map[string]string
	digest  uint64
}

func NewKVStore() *KVStore { return &KVStore{entries: make(map[string]string)} }

const (
	fnvOffsetBasis = 0xcbf29ce484222325
	fnvPrime       = 0x100000001b3
)

// entryHash is FNV-1a-64 of key, a zero byte, value.
func entryHash(key, value string) uint64 {
	h := uint64(fnvOffsetBasis)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint64(key[i])) * fnvPrime
	}
	h *= fnvPrime // the zero separator: h ^ 0 == h
	for i := 0; i < len(value); i++ {
		h = (h ^ uint64(value[i])) * fnvPrime
	}
	return h
}

// Apply executes one command and returns what the client is told.
func (kv *KVStore) Apply(c Command) Result {
	switch c.Type {
	case CommandGet:
		if v, ok := kv.entries[c.Key]; ok {
			return Result{Type: ResultOk, Value: v}
		}
		return Result{Type: ResultNotFound}
	case CommandPut:
		if old, ok := kv.entries[c.Key]; ok {
			kv.digest -= entryHash(c.Key, old)
		}
		kv.entries[c.Key] = c.Value
		kv.digest += entryHash(c.Key, c.Value)
		return Result{Type: ResultOk}
	case CommandNoop:
		return Result{Type: ResultOk}
	default:
		old, ok := kv.entries[c.Key]
		if !ok {
			return Result{Type: ResultNotFound}
		}
		kv.digest -= entryHash(c.Key, old)
		delete(kv.entries, c.Key)
		return Result{Type: ResultOk}
	}
}

func (kv *KVStore) Size() int      { return len(kv.entries) }
func (kv *KVStore) Digest() uint64 { return kv.digest }

// FirstEntries returns up to limit entries in ascending byte order of keys. Below the store's
// size it keeps only the smallest `limit` keys seen so far, so its work and memory follow the
// limit, not the store: Inspect asks for 64 of them, under the lock every request needs
// (issue 16).
func (kv *KVStore) FirstEntries(limit int) [][2]string {
	var keys []string
	if limit >= len(kv.entries) {
		keys = make([]string, 0, len(kv.entries))
		for k := range kv.entries {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	} else {
		keys = smallestKeys(kv.entries, limit)
	}
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, kv.entries[k]}
	}
	return out
}

// smallestKeys returns the `limit` smallest keys of entries in ascending order, holding at most
// `limit` of them at any time.
func smallestKeys(entries map[string]string, limit int) []string {
	keys := make([]string, 0, limit)
	if limit <= 0 {
		return keys
	}
	for k := range entries {
		if len(keys) == limit && k >= keys[limit-1] {
			continue // the common case once the slice is full: one comparison
		}
		at := sort.SearchStrings(keys, k)
		if len(keys) < limit {
			keys = append(keys, "")
		}
		copy(keys[at+1:], keys[at:len(keys)-1])
		keys[at] = k
	}
	return keys
}
