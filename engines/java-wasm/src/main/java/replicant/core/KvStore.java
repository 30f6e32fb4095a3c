package replicant.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;

/**
 * The replicated state machine: a hash map with a running digest, so that two replicas can be
 * compared in O(1). The digest is the wrapping sum of FNV-1a-64 over key, 0x00, value of every
 * entry; Java's long addition and multiplication wrap modulo 2^64 like Go's uint64.
 */
public final class KvStore {
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final HashMap<String, String> entries = new HashMap<>();
    private long digest;

    /** FNV-1a-64 of key, a zero byte, value (strings hold one byte per char). */
    static long entryHash(String key, String value) {
        long h = FNV_OFFSET_BASIS;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ (key.charAt(i) & 0xff)) * FNV_PRIME;
        }
        h *= FNV_PRIME; // the zero separator: h ^ 0 == h
        for (int i = 0; i < value.length(); i++) {
            h = (h ^ (value.charAt(i) & 0xff)) * FNV_PRIME;
        }
        return h;
    }

    /** Empties the store (a snapshot is about to be installed). */
    void clear() {
        entries.clear();
        digest = 0;
    }

    /** Executes one command and returns what the client is told. */
    public Command.Result apply(Command c) {
        switch (c.type) {
            case GET: {
                String v = entries.get(c.key);
                return v != null ? Command.Result.ok(v) : Command.Result.NOT_FOUND;
            }
            case PUT: {
                String old = entries.put(c.key, c.value);
                if (old != null) digest -= entryHash(c.key, old);
                digest += entryHash(c.key, c.value);
                return Command.Result.OK_EMPTY;
            }
            case NOOP:
                return Command.Result.OK_EMPTY;
            default: {
                String old = entries.remove(c.key);
                if (old == null) return Command.Result.NOT_FOUND;
                digest -= entryHash(c.key, old);
                return Command.Result.OK_EMPTY;
            }
        }
    }

    public int size() {
        return entries.size();
    }

    public long digest() {
        return digest;
    }

    /**
     * Up to limit entries in ascending byte order of keys. Keys are printable ASCII, so
     * String's natural (UTF-16 unit) order is byte order. Below the store's size only the
     * smallest {@code limit} keys seen so far are kept, so the work and memory follow the limit,
     * not the store: Inspect asks for 64 of them on every native status line, under the lock
     * every request needs (issue 16).
     */
    public List<String[]> firstEntries(int limit) {
        ArrayList<String> keys;
        if (limit >= entries.size()) {
            keys = new ArrayList<>(entries.keySet());
            Collections.sort(keys);
        } else {
            keys = smallestKeys(limit);
        }
        List<String[]> out = new ArrayList<>(keys.size());
        for (String k : keys) out.add(new String[] {k, entries.get(k)});
        return out;
    }

    /** The {@code limit} smallest keys in ascending order, holding at most {@code limit} at a time. */
    private ArrayList<String> smallestKeys(int limit) {
        ArrayList<String> keys = new ArrayList<>(Math.max(limit, 0));
        if (limit <= 0) return keys;
        for (String k : entries.keySet()) {
            if (keys.size() == limit && k.compareTo(keys.get(limit - 1)) >= 0) continue; // the common case: one comparison
            int at = Collections.binarySearch(keys, k);
            if (at < 0) at = -at - 1;
            if (keys.size() == limit) keys.remove(limit - 1);
            keys.add(at, k);
        }
        return keys;
    }
}
