package replicant.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Runs the fuzz targets over their seed corpora (fuzz/corpus/) and over inputs that once
 * troubled a fuzzer or are known to be hard, so that the targets keep compiling, their checks
 * keep holding, and every finding stays fixed. Fuzzing itself is engines/java-wasm/fuzz.sh.
 */
class FuzzTargetsTest {
    private static List<Path> corpus(String name) throws IOException {
        try (Stream<Path> s = Files.list(Paths.get("fuzz/corpus", name))) {
            return s.sorted().collect(Collectors.toList());
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void clientLineTargetHoldsOnItsCorpus() throws IOException {
        List<Path> files = corpus("client-line");
        assertTrue(files.size() >= 5);
        ClientLineFuzzer.fuzzerInitialize();
        for (Path f : files) ClientLineFuzzer.fuzzerTestOneInput(Files.readAllBytes(f));
        for (String s : new String[] {"", " ", "put", "put  ", "put k", "put k\u0000v", "get \u00ff", "put \u007f v",
            "del " + "x".repeat(257), "put k " + "v".repeat(65537)}) {
            ClientLineFuzzer.fuzzerTestOneInput(b(s));
        }
    }

    @Test
    void peerFrameTargetHoldsOnItsCorpus() throws IOException {
        List<Path> files = corpus("peer-frame");
        assertTrue(files.size() >= 5);
        PeerFrameFuzzer.fuzzerInitialize();
        for (Path f : files) PeerFrameFuzzer.fuzzerTestOneInput(Files.readAllBytes(f));
        for (String s : new String[] {"", "[", "{", "\"", "[".repeat(100_000), "{\"a\":".repeat(50_000),
            "{\"type\":\"accept_request\",\"from\":1,\"to\":0,\"channel_id\":1,\"instance\":{\"ballot\":257,"
                + "\"index\":9007199254740991,\"client_id\":1,\"request_id\":1,\"state\":\"in_progress\","
                + "\"command\":{\"type\":\"get\",\"key\":\"k\"}}}",
            "{\"type\":\"commit_request\",\"from\":1,\"to\":0,\"channel_id\":1,\"ballot\":257,"
                + "\"last_executed\":9007199254740991,\"global_last_executed\":9007199254740991}"}) {
            PeerFrameFuzzer.fuzzerTestOneInput(b(s));
        }
    }
}
