package replicant.wasm;

import java.util.HashMap;

import org.teavm.classlib.PlatformDetector;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSMethod;
import org.teavm.jso.typedarrays.Int8Array;

import replicant.core.BinaryCodec;
import replicant.core.Codec;
import replicant.core.Config;
import replicant.core.Json;
import replicant.core.Node;

/**
 * The entry class of both TeaVM builds, JAVASCRIPT (what runs in Node: the core as JavaScript)
 * and WEBASSEMBLY_GC (what runs in browsers): the five functions of docs/protocol.md
 * "WebAssembly exports". create returns 0 for a bad configuration; lastError then names the
 * problem. The others return null for an unknown handle. An instance of the compiled module
 * holds nodes by handle; the loader creates one instance per node, so in practice each holds one.
 *
 * <p>Strings cross the boundary as JavaScript strings. Events are re-encoded to UTF-8 bytes
 * here, exactly as the native host receives them, so both read the same bytes. The one thing
 * that differs between the builds, the runtime's name in stats, TeaVM decides at compile time
 * ({@link PlatformDetector} is replaced by a constant for each target).
 */
public final class Exports {
    private static final HashMap<Integer, Node> nodes = new HashMap<>();
    private static int nextHandle = 1;
    private static String lastError = "";

    private Exports() {}

    /** A new node's handle (≥ 1), or 0 with {@link #lastError} set. */
    @JSExport
    public static int create(String configJson) {
        try {
            Config cfg = Codec.decodeConfig(Utf8.encode(configJson));
            int handle = nextHandle++;
            nodes.put(handle, new Node(cfg));
            return handle;
        } catch (Config.ConfigException e) {
            lastError = e.getMessage();
            return 0;
        }
    }

    @JSExport
    public static String lastError() {
        return lastError;
    }

    /** The effects as JSON Lines, or null for an unknown handle. */
    @JSExport
    public static String step(int handle, String eventJson) {
        Node n = nodes.get(handle);
        return n == null ? null : n.stepJson(Utf8.encode(eventJson));
    }

    /**
     * The binary step (docs/protocol.md, "Binary step"), exported under the Rust module's name:
     * one event in the binary encoding in, the effects in the binary encoding out, or null for
     * an unknown handle. The bytes cross as typed arrays: in the JavaScript build the event is
     * read in place (the Java array wraps the caller's Int8Array) and the effects are a view of
     * the node's own output buffer, valid until its next step (the contract of rc_output); in
     * WebAssembly GC, where Java arrays cannot share JavaScript memory, TeaVM copies both ways.
     * TeaVM's by-reference conversion of a plain byte[] parameter or result of an export copies
     * element by element in the JavaScript build, so the signature names Int8Array instead.
     */
    @JSExport
    @JSMethod("rc_step_binary")
    public static Int8Array stepBinary(int handle, Int8Array event) {
        Node n = nodes.get(handle);
        if (n == null) return null;
        byte[] in = event.copyToJavaArray();
        return outputView(n.stepBinary(in, in.length));
    }

    /** The output's bytes as an Int8Array: in the JavaScript build a view of its buffer. */
    private static Int8Array outputView(BinaryCodec.Output out) {
        Int8Array whole = Int8Array.copyFromJavaArray(out.buffer());
        return Int8Array.create(whole.getBuffer(), whole.getByteOffset(), out.length());
    }

    /**
     * The batch step (docs/protocol.md, "Batch step"), under the other modules' name: frames
     * of binary events in, one frame of effects per event out, as {@link #stepBinary} passes
     * bytes; null for an unknown handle. Bad framing steps nothing and returns an empty array
     * for a non-empty input (a batch that steps anything has at least one frame of output), so
     * the loader can tell it from an empty batch without a second channel.
     */
    @JSExport
    @JSMethod("rc_step_batch")
    public static Int8Array stepBatch(int handle, Int8Array batch) {
        Node n = nodes.get(handle);
        if (n == null) return null;
        byte[] in = batch.copyToJavaArray();
        BinaryCodec.Output out = n.stepBatch(in, in.length);
        return out == null ? Int8Array.create(0) : outputView(out);
    }

    @JSExport
    public static String inspect(int handle) {
        Node n = nodes.get(handle);
        return n == null ? null : n.inspect();
    }

    @JSExport
    public static String stats(int handle) {
        if (!nodes.containsKey(handle)) return null;
        String runtime = PlatformDetector.isWebAssemblyGC() ? "java-teavm-wasmgc" : "java-teavm-js";
        StringBuilder b = new StringBuilder(256).append('{');
        Json.appendStringField(b, "runtime", runtime, true);
        Json.appendField(b, "alloc_bytes_total", false).append("null");
        Json.appendField(b, "allocs_total", false).append("null");
        Json.appendUintField(b, "nodes", nodes.size(), false);
        Json.appendStringField(b, "note", "allocation is not observable in a TeaVM build: objects live on the "
                + "JavaScript engine's garbage-collected heap (WasmGC structs or JS objects), which exposes no "
                + "allocation or GC counters to the program", false);
        return b.append('}').toString();
    }

    @JSExport
    public static void destroy(int handle) {
        nodes.remove(handle);
    }
}
