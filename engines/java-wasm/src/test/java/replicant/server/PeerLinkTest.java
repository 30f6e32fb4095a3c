package replicant.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

import org.junit.jupiter.api.Test;

class PeerLinkTest {
    // A message queued for a peer longer than MAX_PEER_MESSAGE_AGE_NS is dropped and counted,
    // whatever room the queue has left: a peer that stopped reading gets no backlog of stale
    // messages to work through when it resumes (issue 20).
    @Test
    void dropsMessagesQueuedTooLong() {
        Status.DriverCounters c = new Status.DriverCounters();
        long[] now = {1_000_000_000_000L};
        PeerLink link = new PeerLink(c, () -> now[0]);
        link.setUp(true); // no writer runs: every message stays queued
        for (int i = 0; i < 100; i++) link.offer(new byte[1000]);
        assertEquals(0, c.droppedSends.get(), "dropped with 100 kB queued and no time passed");
        now[0] += Limits.MAX_PEER_MESSAGE_AGE_NS / 2;
        link.offer(new byte[1000]);
        assertEquals(0, c.droppedSends.get(), "dropped after half the age limit");
        now[0] += Limits.MAX_PEER_MESSAGE_AGE_NS / 2 + 1_000_000;
        link.offer(new byte[1000]);
        // the 100 queued first are over the age; the one queued at half of it is not
        assertEquals(100, c.droppedSends.get());
        assertArrayEquals(new long[] {2, 2000}, link.queued());
        assertEquals(2000, c.peerQueueBytes.get());
    }

    // The kernel's buffers of a peer connection are bounded on both ends, as the server sets
    // them: the dialer's send buffer, and the listener's receive buffer, which the connections
    // it accepts inherit. Linux reports twice the size asked for (its bookkeeping).
    @Test
    void socketBuffersAreBounded() throws Exception {
        try (ServerSocket listener = Server.listen(new InetSocketAddress("127.0.0.1", 0), "test", Limits.PEER_SOCKET_BUFFER_BYTES);
                Socket dialed = new Socket()) {
            dialed.setSendBufferSize(Limits.PEER_SOCKET_BUFFER_BYTES);
            dialed.connect(listener.getLocalSocketAddress(), 2000);
            try (Socket accepted = listener.accept()) {
                assertTrue(dialed.getSendBufferSize() <= 2 * Limits.PEER_SOCKET_BUFFER_BYTES, "send buffer " + dialed.getSendBufferSize());
                assertTrue(accepted.getReceiveBufferSize() <= 2 * Limits.PEER_SOCKET_BUFFER_BYTES, "receive buffer " + accepted.getReceiveBufferSize());
            }
        }
    }
}
