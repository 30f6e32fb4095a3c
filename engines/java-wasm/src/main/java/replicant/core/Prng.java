package replicant.core;

/**
 * SplitMix64, the only source of randomness in the core: every engine draws the same numbers
 * from the same seed. Java's {@code long} arithmetic wraps modulo 2^64 exactly like Go's
 * {@code uint64}; the shifts must be logical ({@code >>>}).
 */
public final class Prng {
    private long state;

    public Prng(long seed) {
        this.state = seed;
    }

    public long next() {
        state += 0x9e3779b97f4a7c15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
