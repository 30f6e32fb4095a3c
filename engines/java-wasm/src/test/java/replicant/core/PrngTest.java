package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Expected values come from the Go reference core (core.NewSplitMix64(seed).Next()). */
class PrngTest {
    private static void assertDraws(long seed, String... expected) {
        Prng p = new Prng(seed);
        for (String e : expected) assertEquals(Long.parseUnsignedLong(e), p.next(), "seed " + seed);
    }

    @Test
    void matchesTheGoReference() {
        assertDraws(0, "16294208416658607535", "7960286522194355700", "487617019471545679", "17909611376780542444");
        assertDraws(1, "10451216379200822465", "13757245211066428519", "17911839290282890590", "8196980753821780235");
        assertDraws(2, "10905525725756348110", "13819372491320860226", "10987583248141275951", "14119491246550939236");
        assertDraws((1L << 53) - 1, "2646233860231550367", "3513919288614318488", "9765177950096426844",
                "4715333810767792838");
    }

    @Test
    void electionDelayIsUnsignedModulo() {
        // Seed 1's first draw is above 2^63: a signed remainder would be negative.
        Config cfg = Config.defaults();
        cfg.seed = 1;
        Node n = new Node(cfg);
        long d = n.electionDelayUs();
        assertEquals(225_000 + Long.remainderUnsigned(Long.parseUnsignedLong("10451216379200822465"), 75_001), d);
        assertEquals(269_038, d); // the Go reference's first set_timer for seed 1
    }
}
