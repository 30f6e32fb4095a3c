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
    static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    static final long FNV_PRIME = 0x100000001b3L;
    /** FNV_PRIME is 2^FNV_PRIME_SHIFT + FNV_PRIME_LOW. */
    private static final int FNV_PRIME_SHIFT = 40;
    private static final int FNV_PRIME_LOW = 0x1b3;

    private final HashMap<String, String> entries = new HashMap<>();
    private long digest;

    /**
     * FNV-1a-64 of key, a zero byte, value (strings hold one byte per char). The 64-bit state is
     * kept as two ints, high and low: TeaVM's JavaScript build emulates every long operation
     * with a heap object, and a long multiply per byte made this the largest cost of the Java
     * core in exact simulation. The result is the plain 64-bit FNV-1a (KvStoreTest checks it).
     */
    static long entryHash(String key, String value) {
        return fnv1a(fnv1a(fnv1a(FNV_OFFSET_BASIS, key), SEPARATOR), value);
    }

    private static final String SEPARATOR = "\0";

    /** FNV-1a-64 state h after the bytes of s (one per char). */
    private static long fnv1a(long h, String s) {
        int hi = (int) (h >>> 32);
        int lo = (int) h;
        for (int i = 0, n = s.length(); i < n; i++) {
            lo ^= s.charAt(i) & 0xff;
            // (hi:lo) * (2^40 + 0x1b3) mod 2^64, with lo * 0x1b3 split into 16-bit halves so
            // that its bits above 32 (the carry into hi) are exact in int arithmetic
            int lowHalf = (lo & 0xffff) * FNV_PRIME_LOW;
            int highHalf = (lo >>> 16) * FNV_PRIME_LOW;
            int carry = ((lowHalf >>> 16) + highHalf) >>> 16;
            hi = hi * FNV_PRIME_LOW + carry + (lo << (FNV_PRIME_SHIFT - 32));
            lo = lowHalf + (highHalf << 16);
        }
        return ((long) hi << 32) | (lo & 0xffffffffL);
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
