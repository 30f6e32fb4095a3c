package replicant.core;

/**
 * Ballot arithmetic. A ballot is an unsigned 64-bit number: the low 8 bits name the node that
 * chose it, the rest is the round. Every ballot we produce stays below 2^53 so that JavaScript
 * can read it exactly, which is why plain signed {@code long} comparisons are safe here.
 */
public final class Ballot {
    /** In a ballot's low byte: no node leads yet. */
    public static final long NO_LEADER = 0xf;
    public static final long INITIAL_BALLOT = NO_LEADER;
    /** Id 15 would read as {@link #NO_LEADER}, so at most 15 peers. */
    public static final long MAX_NUM_PEERS = 15;

    private static final long ROUND_INCREMENT = 0x100;
    private static final long ID_BITS = 0xff;

    private Ballot() {}

    /** The id held in a ballot's low byte ({@link #NO_LEADER} for none). */
    public static long leaderOf(long ballot) {
        return ballot & ID_BITS;
    }

    /** The first ballot of the next round, owned by id. */
    public static long nextBallot(long ballot, long id) {
        return ((ballot + ROUND_INCREMENT) & ~ID_BITS) | id;
    }
}
