package replicant.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BallotTest {
    @Test
    void leaderIsTheLowByte() {
        assertEquals(1, Ballot.leaderOf(0x201));
        assertEquals(Ballot.NO_LEADER, Ballot.leaderOf(Ballot.INITIAL_BALLOT));
        assertEquals(0, Ballot.leaderOf(0x300));
    }

    @Test
    void nextBallotStartsTheNextRoundOwnedById() {
        assertEquals(0x301, Ballot.nextBallot(0x201, 1)); // 2.1 -> 3.1
        assertEquals(0x102, Ballot.nextBallot(Ballot.INITIAL_BALLOT, 2)); // 0.- -> 1.2
        assertEquals(0x300, Ballot.nextBallot(0x2ff, 0)); // the id bits never carry into the round
        assertEquals(0x20e, Ballot.nextBallot(0x10e, 14));
    }

    @Test
    void nextBallotAlwaysRises() {
        for (long b = 0; b < 0x2000; b += 7) {
            for (long id = 0; id < 15; id++) {
                long n = Ballot.nextBallot(b, id);
                assertEquals(id, Ballot.leaderOf(n));
                assertEquals(true, n > b);
            }
        }
    }
}
