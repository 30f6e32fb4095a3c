package replicant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import replicant.core.Durability;

/** The write-ahead log's frames: read back, torn tail truncated, corrupt middle refused. */
class WalTest {
    @TempDir
    Path dir;

    @Test
    void crc32cMatchesTheStandardCheckValue() {
        byte[] b = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertEquals(0xe3069283L, Wal.crc32c(b, 0, b.length));
    }

    @Test
    void readsBackTruncatesATornTailAndRefusesACorruptMiddle() throws Exception {
        Wal w = Wal.open(dir, Wal.Fsync.ALWAYS, new Wal.Read());
        w.append(List.of(Durability.Record.promise(257), Durability.Record.promise(513)));
        w.close();
        Path path = dir.resolve("wal.log");
        byte[] good = Files.readAllBytes(path);
        byte[] torn = java.util.Arrays.copyOf(good, good.length + 3);
        Files.write(path, torn);
        Wal.Read read = new Wal.Read();
        Wal.open(dir, Wal.Fsync.ALWAYS, read).close();
        assertEquals(2, read.records.size());
        assertTrue(read.warning.contains("torn tail at offset 78"), read.warning);
        assertEquals(good.length, Files.size(path));
        byte[] bad = good.clone();
        bad[20] ^= 1;
        Files.write(path, bad);
        ServerConfig.BadConfig e = assertThrows(ServerConfig.BadConfig.class, () -> Wal.open(dir, Wal.Fsync.ALWAYS, new Wal.Read()));
        assertTrue(e.getMessage().contains("corrupt record at offset 0") && e.getMessage().contains("wal.log"), e.getMessage());
        assertThrows(ServerConfig.BadConfig.class, () -> Wal.open(dir.resolve("missing"), Wal.Fsync.ALWAYS, new Wal.Read()));
    }
}
