package replicant.server;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import replicant.core.Codec;
import replicant.core.Config;
import replicant.core.Durability;
import replicant.core.Json;
import replicant.core.Messages;
import replicant.core.Messages.Event;
import replicant.core.Node;

/**
 * Jazzer target for the write-ahead log reader and the record decoder and restart behind it
 * (engines/java-wasm/fuzz.sh): whatever a wal.log holds, the server gets records or a clear
 * error (BadConfig), never another exception. Beside Wal because the reader is package-private.
 * The first input byte picks the shape, as in the other engines' WAL targets: even, the rest is
 * the file as it is (torn tails, corrupt middles); odd, the rest is records separated by
 * newlines, each framed with a good checksum, so the mutations reach the record decoder and the
 * core's restart instead of dying at the checksum.
 */
public final class WalFuzzer {
    private WalFuzzer() {}

    static byte[] walFile(byte[] in) {
        if (in.length == 0) return in;
        if (in[0] % 2 == 0) return java.util.Arrays.copyOfRange(in, 1, in.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int start = 1;
        for (int i = 1; i <= in.length; i++) {
            if (i < in.length && in[i] != '\n') continue;
            int len = i - start;
            ByteBuffer hdr = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            hdr.putInt(len).putInt((int) Wal.crc32c(in, start, len));
            out.write(hdr.array(), 0, 8);
            out.write(in, start, len);
            start = i + 1;
        }
        return out.toByteArray();
    }

    public static void fuzzerTestOneInput(byte[] data) {
        Wal.Read read = new Wal.Read();
        try {
            Wal.readFrames("wal.log", walFile(data), read);
        } catch (ServerConfig.BadConfig e) {
            return; // the server refuses to start, naming the offset
        }
        List<Durability.Record> records = new ArrayList<>();
        // The codec leaves content rules to the protocol: a snapshot key with a control character
        // decodes, and the canonical writer (printable ASCII only) cannot say it. A restart with
        // such a record must be refused (fuzz/corpus/wal-records/snapshot_control_char_key; it
        // failed this target before).
        boolean unsayable = false;
        for (byte[] raw : read.records) {
            Durability.Record r = Codec.decodeRecordJson(raw);
            if (r == null) return; // the server refuses to start, naming the record
            String once = Codec.appendRecord(new StringBuilder(), r).toString();
            Durability.Record again = Codec.decodeRecordJson(Json.toBytes(once));
            if (again == null) {
                unsayable = true;
            } else if (!once.equals(Codec.appendRecord(new StringBuilder(), again).toString())) {
                throw new IllegalStateException("a record does not re-encode to itself: " + once);
            }
            records.add(r);
        }
        Config c = Config.defaults();
        c.id = 0;
        c.numPeers = 3;
        c.durability = Durability.Mode.LOG;
        Node n = new Node(c);
        Event restart = new Event(Messages.EventType.RESTART);
        restart.records = records;
        long before = badEvents(n);
        n.step(restart);
        if (unsayable && badEvents(n) <= before) {
            throw new IllegalStateException("a restart with a record whose canonical form does not decode was accepted");
        }
    }

    private static long badEvents(Node n) {
        return Json.parse(Json.toBytes(n.inspect())).field("counters").field("bad_events").number;
    }
}
